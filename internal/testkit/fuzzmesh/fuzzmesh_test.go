package fuzzmesh

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSeeds: the seeds are closed tubes whose animation moves them.
func TestSeeds(t *testing.T) {
	for k, data := range Seeds() {
		s, err := Sequence(data)
		if err != nil {
			t.Fatalf("seed %d: %v", k, err)
		}
		m := s.Rest
		// Closed: every edge is shared by exactly two triangles.
		edges := map[[2]int]int{}
		for _, tri := range m.Tris {
			for a := 0; a < 3; a++ {
				i, j := tri[a], tri[(a+1)%3]
				edges[[2]int{min(i, j), max(i, j)}]++
			}
		}
		for e, n := range edges {
			if n != 2 {
				t.Fatalf("seed %d: edge %v in %d triangles", k, e, n)
			}
		}
		moved := 0.0
		for f := 0; f < s.F(); f++ {
			for i, v := range s.FrameInto(nil, f) {
				moved = max(moved, v.Dist(m.Verts[i]))
			}
		}
		if moved < 0.05*s.Diagonal() {
			t.Errorf("seed %d: moves at most %.3g·d", k, moved/s.Diagonal())
		}
		t.Logf("seed %d: %d vertices, %d frames, moves up to %.2f·d", k, s.N(), s.F(), moved/s.Diagonal())
	}
}

// TestAnyBytes: every byte string gives a valid, bounded sequence, the
// same one every time.
func TestAnyBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 2000; k++ {
		data := make([]byte, rng.IntN(400))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		if k%4 == 0 {
			clear(data[rng.IntN(len(data)+1):]) // runs of zeros: pinched rings, still frames
		}
		s, err := Sequence(data)
		if err != nil {
			t.Fatalf("input %d (%x): %v", k, data, err)
		}
		if s.N() > MaxRings*MaxAround+2 || s.F() < 2 || s.F() > MaxFrames {
			t.Fatalf("input %d: %d vertices, %d frames", k, s.N(), s.F())
		}
		again, _ := Sequence(data)
		if !slices.Equal(s.Frames, again.Frames) || !slices.Equal(s.Rest.Verts, again.Rest.Verts) {
			t.Fatalf("input %d: two calls differ", k)
		}
	}
}
