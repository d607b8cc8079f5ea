package usd

import (
	"bytes"
	"errors"
	"testing"

	"github.com/meshrig/meshrig/format"
)

// tinyUSDC is the tiny surfaced rig as a crate file.
func tinyUSDC(t testing.TB) []byte {
	var b bytes.Buffer
	if err := WriteUSDC(&b, tinySurfaced(t), format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// FuzzReadUSDC reads arbitrary bytes as a crate: a rig or an error,
// never a panic; a rig read is valid and written again reads back with
// the same joints.
func FuzzReadUSDC(f *testing.F) {
	f.Add(tinyUSDC(f))
	var b bytes.Buffer
	if err := WriteUSDC(&b, tinyRig(f), format.WriteOptions{}); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add([]byte("PXR-USDC"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ReadUSDC(bytes.NewReader(data))
		if err != nil {
			return
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("rig read is invalid: %v", err)
		}
		var w bytes.Buffer
		if err := WriteUSDC(&w, got, format.WriteOptions{}); err != nil {
			t.Fatalf("rig read cannot be written: %v", err)
		}
		again, err := ReadUSDC(&w)
		if err != nil {
			t.Fatalf("written again, it does not read: %v", err)
		}
		for j, jt := range got.Skeleton.Joints {
			if again.Skeleton.Joints[j] != jt {
				t.Fatalf("joint %d: %+v, then %+v", j, jt, again.Skeleton.Joints[j])
			}
		}
	})
}

// TestReadUSDCRefuses reads the tiny crate cut at every byte and with
// every byte flipped in turn: each read is a rig or one error, never a
// panic; every cut file is an error, and an error in the file's
// structure names its byte offset.
func TestReadUSDCRefuses(t *testing.T) {
	data := tinyUSDC(t)
	for n := 0; n < len(data); n++ {
		_, err := ReadUSDC(bytes.NewReader(data[:n]))
		if err == nil {
			t.Fatalf("cut at %d of %d bytes: read without error", n, len(data))
		}
	}
	var pe *format.ParseError
	_, err := ReadUSDC(bytes.NewReader(data[:100]))
	if !errors.As(err, &pe) || pe.Offset < 0 {
		t.Errorf("cut at 100 bytes: %v, want an error with a byte offset", err)
	}
	flipped := 0
	for i := range data {
		b := bytes.Clone(data)
		b[i] ^= 0xff
		if _, err := ReadUSDC(bytes.NewReader(b)); err != nil {
			flipped++
		}
	}
	t.Logf("%d of %d single-byte flips refused, the others read as valid rigs", flipped, len(data))
	for _, tc := range []struct {
		name string
		edit func([]byte) []byte
		want string
	}{
		{"magic", func(b []byte) []byte { b[0] = 'Q'; return b }, "not a usdc file"},
		{"old version", func(b []byte) []byte { b[9] = 3; return b }, "usdc version 0.3.0"},
		{"table past the end", func(b []byte) []byte { b[16], b[17], b[18] = 0xff, 0xff, 0xff; return b }, "past the end of the file"},
	} {
		_, err := ReadUSDC(bytes.NewReader(tc.edit(bytes.Clone(data))))
		if !errors.As(err, &pe) || !bytes.Contains([]byte(err.Error()), []byte(tc.want)) {
			t.Errorf("%s: %v, want a ParseError with %q", tc.name, err, tc.want)
		}
	}
}
