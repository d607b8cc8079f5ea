package usd

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/meshrig/meshrig/format"
)

// lz4Literals undoes fastCompress as an LZ4 decoder would: the frame's
// chunk byte, then one sequence of literals.
func lz4Literals(t *testing.T, b []byte) []byte {
	t.Helper()
	if len(b) < 2 || b[0] != 0 || b[1]&0x0f != 0 {
		t.Fatalf("frame %x: not one chunk of one literal-only sequence", b[:min(len(b), 4)])
	}
	n, at := int(b[1]>>4), 2
	if n == 15 {
		for {
			n += int(b[at])
			at++
			if b[at-1] != 255 {
				break
			}
		}
	}
	if at+n != len(b) {
		t.Fatalf("%d literals announced, %d bytes follow", n, len(b)-at)
	}
	return b[at:]
}

// decodeInts undoes encodeInts.
func decodeInts(t *testing.T, b []byte, n int) []int32 {
	t.Helper()
	common := int32(binary.LittleEndian.Uint32(b))
	codes := b[4 : 4+(2*n+7)/8]
	tail := b[4+len(codes):]
	out := make([]int32, n)
	var prev int32
	for i := range out {
		d := common
		switch codes[i/4] >> (2 * (i % 4)) & 3 {
		case 1:
			d, tail = int32(int8(tail[0])), tail[1:]
		case 2:
			d, tail = int32(int16(binary.LittleEndian.Uint16(tail))), tail[2:]
		case 3:
			d, tail = int32(binary.LittleEndian.Uint32(tail)), tail[4:]
		}
		prev += d
		out[i] = prev
	}
	if len(tail) != 0 {
		t.Fatalf("%d bytes left after %d integers", len(tail), n)
	}
	return out
}

// TestCrateCodings round-trips the integer coding (deltas of every
// width, the common one, negative values) and the LZ4 framing (lengths
// around the 15 and 255 steps of literal-length bytes).
func TestCrateCodings(t *testing.T) {
	ints := []int32{0, 1, 2, 3, 4, 3, -1, 200, -40000, 70000, 70001, -2147483648, 2147483647, 5, 6, 7}
	got := decodeInts(t, lz4Literals(t, fastCompress(encodeInts(ints))), len(ints))
	for i := range ints {
		if got[i] != ints[i] {
			t.Fatalf("integer %d: %d back, %d written", i, got[i], ints[i])
		}
	}
	for _, n := range []int{0, 1, 14, 15, 16, 269, 270, 271, 525, 1000} {
		b := bytes.Repeat([]byte{7}, n)
		if back := lz4Literals(t, fastCompress(b)); !bytes.Equal(back, b) {
			t.Fatalf("%d bytes: %d back", n, len(back))
		}
	}
	if h := half(1); h != 0x3c00 {
		t.Errorf("half(1) = %#x, want 0x3c00", h)
	}
	if h := half(-2.5); h != 0xc100 {
		t.Errorf("half(-2.5) = %#x, want 0xc100", h)
	}
}

// TestUSDCLayout checks the crate's frame: the bootstrap (magic, version
// 0.8.0, table of contents offset) and its six sections, in order, each
// inside the file and after the one before.
func TestUSDCLayout(t *testing.T) {
	var b bytes.Buffer
	if err := WriteUSDC(&b, tinySurfaced(t), format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	f := b.Bytes()
	if string(f[:8]) != "PXR-USDC" || f[8] != 0 || f[9] != 8 || f[10] != 0 {
		t.Fatalf("bootstrap %q %v", f[:8], f[8:11])
	}
	toc := binary.LittleEndian.Uint64(f[16:])
	n := binary.LittleEndian.Uint64(f[toc:])
	want := []string{"TOKENS", "STRINGS", "FIELDS", "FIELDSETS", "PATHS", "SPECS"}
	if n != uint64(len(want)) {
		t.Fatalf("%d sections", n)
	}
	end := uint64(88)
	for k, name := range want {
		e := f[toc+8+32*uint64(k):]
		start, size := binary.LittleEndian.Uint64(e[16:]), binary.LittleEndian.Uint64(e[24:])
		if string(bytes.TrimRight(e[:16], "\x00")) != name || start < end || start+size > toc {
			t.Fatalf("section %d: %q at %d, %d bytes (previous end %d, table at %d)", k, e[:16], start, size, end, toc)
		}
		end = start + size
	}
}
