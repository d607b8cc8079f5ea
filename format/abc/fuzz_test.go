package abc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
)

// FuzzOpen reads the tiny files of the other tests (an Xform over a
// PolyMesh of quads and a pentagon with UVs, uniform and acyclic
// samplings) broken by edits the fuzzer chooses, and reads every mesh at
// every sample within a small budget (16 KiB of frames, so each run is
// quick). An error must be one line, a ParseError with an offset unless it
// is the budget's; a success must be a valid sequence whose parts cover
// its vertices.
//
// The fuzzer's input is the list of edits, not the file: Go's fuzzer
// minimizes every new input it finds with a pass quadratic in its length,
// which on a kilobyte file stalls it for most of its time, while edits
// stay a few bytes long and each one lands on the file's structure.
func FuzzOpen(f *testing.F) {
	bases := fuzzBases()
	f.Add([]byte{0})
	f.Add([]byte{1})
	f.Add([]byte{0, 0, 0x10, 0x00, 0xff}) // a byte flipped
	f.Add([]byte{1, 1, 0x08, 0x00, 0x7f}) // the root offset past the end
	f.Add([]byte{0, 3, 0x40, 0x00, 0x05}) // 8 bytes pointing at byte 40
	f.Add([]byte{2, 4, 0x00, 0x02, 0x00}) // cut at byte 512
	f.Add([]byte{0, 2, 0x30, 0x01, 0xff}) // 8 bytes holding 255
	f.Fuzz(func(t *testing.T, edits []byte) {
		b := applyEdits(bases, edits)
		sc, err := Read(bytes.NewReader(b), int64(len(b)), Options{MaxBytes: 1 << 14})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			var pe *format.ParseError
			if !errors.As(err, &pe) && !strings.Contains(err.Error(), "GiB") {
				t.Fatalf("error without an offset: %v", err)
			}
			return
		}
		s := sc.Sequence
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, p := range sc.Parts {
			if p.FirstVert != n {
				t.Fatalf("part %s starts at %d, want %d", p.Path, p.FirstVert, n)
			}
			n += p.Verts
		}
		if n != s.N() || len(sc.Times) != s.F() {
			t.Fatalf("parts cover %d of %d vertices; %d times for %d frames", n, s.N(), len(sc.Times), s.F())
		}
	})
}

// fuzzBases are the files FuzzOpen edits.
func fuzzBases() [][]byte { return [][]byte{tinyUniform(2), tinyAcyclic()} }

// applyEdits copies the base file edits[0] picks and applies the 4-byte
// edits that follow: a kind, a little-endian uint16 offset (modulo the
// file's length) and a value. Kinds: flip the byte's bits by the value;
// write a uint64 there that is huge (value<<56), small (the value), or the
// offset of another place in the file (8·value, a plausible pointer);
// cut the file there.
func applyEdits(bases [][]byte, edits []byte) []byte {
	if len(edits) == 0 {
		return bases[0]
	}
	b := bytes.Clone(bases[int(edits[0])%len(bases)])
	for r := edits[1:]; len(r) >= 4 && len(b) > 0; r = r[4:] {
		at := int(binary.LittleEndian.Uint16(r[1:])) % len(b)
		v := r[3]
		put := func(u uint64) {
			if at+8 <= len(b) {
				binary.LittleEndian.PutUint64(b[at:], u)
			}
		}
		switch r[0] % 5 {
		case 0:
			b[at] ^= v
		case 1:
			put(uint64(v) << 56)
		case 2:
			put(uint64(v))
		case 3:
			put(uint64(8*int(v)) % uint64(len(b)))
		case 4:
			b = b[:at]
		}
	}
	return b
}
