package abc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
)

// readAll opens b and reads every mesh at every sample, returning the
// error and the bytes allocated meanwhile.
func readAll(b []byte) (err error, alloc uint64) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_, err = Read(bytes.NewReader(b), int64(len(b)), Options{})
	runtime.ReadMemStats(&m1)
	return err, m1.TotalAlloc - m0.TotalAlloc
}

// checkBroken wants a one-line ParseError with a byte offset and an
// allocation the file's size justifies.
func checkBroken(t *testing.T, what string, b []byte, err error, alloc uint64) {
	t.Helper()
	var pe *format.ParseError
	switch {
	case err == nil:
		t.Errorf("%s: read without error", what)
	case !errors.As(err, &pe) || pe.Offset < 0:
		t.Errorf("%s: %v, want a ParseError with a byte offset", what, err)
	case strings.Contains(err.Error(), "\n"):
		t.Errorf("%s: a multi-line error %q", what, err)
	}
	if limit := 16*uint64(len(b)) + 1<<20; alloc > limit {
		t.Errorf("%s: allocated %d bytes for a %d-byte file", what, alloc, len(b))
	}
}

func realBytes(t testing.TB) []byte {
	b, err := os.ReadFile(shareddata.Path(t, boneAnim))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTruncated: the real file cut anywhere (its root group is at the
// end) is an error with an offset.
func TestTruncated(t *testing.T) {
	b := realBytes(t)
	for _, n := range []int{0, 5, 15, 16, 100, len(b) / 4, len(b) / 2, len(b) - 57, len(b) - 1} {
		err, alloc := readAll(b[:n])
		checkBroken(t, "cut at "+strconv.Itoa(n), b[:n], err, alloc)
	}
}

// TestCorrupted breaks the real file's group tables and block sizes in
// known ways, each refused naming where.
func TestCorrupted(t *testing.T) {
	b := realBytes(t)
	a, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	root := int64(binary.LittleEndian.Uint64(b[8:]))
	top := int64(binary.LittleEndian.Uint64(b[root+8+16:]))
	geom := a.Find("/Bone/BoneShape").Props.Prop(".geom")
	p := geom.Prop("P")
	sample0 := int64(p.g.kids[0] &^ dataBit)
	put := func(at int64, v uint64) []byte {
		c := bytes.Clone(b)
		binary.LittleEndian.PutUint64(c[at:], v)
		return c
	}
	cases := []struct {
		what string
		file []byte
		want string
	}{
		{"root group count huge", put(root, 1<<40), "claims"},
		{"root offset past the end", put(8, uint64(len(b))+64), "outside the file"},
		{"root offset in the header", put(8, 8), "into the 16-byte file header"},
		{"top object offset past the end", put(root+8+16, uint64(len(b))+8), "outside the file"},
		{"P group count huge", put(p.g.pos, 1<<61), "claims"},
		{"P sample offset past the end", put(p.g.pos+8, dataBit|uint64(len(b)+100)), "outside the file"},
		{"P sample of 8 GB", put(sample0, 8<<30), "claims"},
		{".geom compound child is itself (a cycle)", put(geom.g.pos+8, uint64(geom.g.pos)), "second time"},
		{"top object is the root (a cycle)", put(root+8+16, uint64(root)), "second time"},
		{"object child is a data block", put(top+16, dataBit|uint64(sample0)), ""},
		{"P sample points at a group", put(p.g.pos+8, uint64(top)), "points at a group"},
	}
	for _, c := range cases {
		err, alloc := readAll(c.file)
		checkBroken(t, c.what, c.file, err, alloc)
		if err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to say %q", c.what, err, c.want)
		}
	}
}

// TestFlipped flips every byte of the root and top object group tables
// and the .geom compound's: never a panic, every error one line with an
// offset, no allocation beyond the file's size.
func TestFlipped(t *testing.T) {
	b := realBytes(t)
	a, err := Open(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	root := int64(binary.LittleEndian.Uint64(b[8:]))
	top := int64(binary.LittleEndian.Uint64(b[root+8+16:]))
	geom := a.Find("/Bone/BoneShape").Props.Prop(".geom").g
	errs, total := 0, 0
	for _, g := range []struct {
		pos  int64
		kids int
	}{{root, 6}, {top, 3}, {geom.pos, len(geom.kids)}} {
		for at := g.pos; at < g.pos+8+8*int64(g.kids); at++ {
			c := bytes.Clone(b)
			c[at] ^= 0xff
			err, alloc := readAll(c)
			total++
			if err == nil {
				continue
			}
			errs++
			checkBroken(t, "byte "+strconv.Itoa(int(at))+" flipped", c, err, alloc)
		}
	}
	// Flipping a group's count or an offset's high bytes must be caught;
	// only an offset's low bytes can land on another valid structure.
	if errs < total/2 {
		t.Errorf("%d of %d flips refused, want most", errs, total)
	}
}
