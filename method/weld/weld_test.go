package weld

import (
	"slices"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

func TestWeld(t *testing.T) {
	// A unit square as two triangles that share no vertex (a triangle
	// soup, as Fox.glb is), animated over two frames.
	rest := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}}
	tris := [][3]int{{0, 1, 2}, {3, 4, 5}}
	move := func(d float64) []linalg.Vec3 {
		var out []linalg.Vec3
		for f := 1; f <= 2; f++ {
			for i, p := range rest {
				q := p.Add(linalg.Vec3{0, 0, 0.1 * float64(f)})
				if i == 3 && f == 2 {
					q = q.Add(linalg.Vec3{d, 0, 0}) // vertex 3 drifts from vertex 0
				}
				out = append(out, q)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		drift  float64
		verts  int
		shared bool // vertices 0 and 3 welded
	}{
		{"seams", 0, 4, true},
		{"small tear", 0.01, 4, true},
		{"parting", 0.5, 5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := Weld(rest, move(tc.drift), tris, 2, 1e-9, 0.05)
			if len(w.Rest) != tc.verts || len(w.Frames) != 2*tc.verts || len(w.First) != tc.verts {
				t.Fatalf("%d welded vertices, %d frame positions, %d first copies; want %d", len(w.Rest), len(w.Frames), len(w.First), tc.verts)
			}
			if w.Merged() != 6-tc.verts {
				t.Errorf("Merged %d, want %d", w.Merged(), 6-tc.verts)
			}
			if (w.Of[0] == w.Of[3]) != tc.shared || w.Of[2] != w.Of[4] {
				t.Errorf("welding map %v", w.Of)
			}
			for v, i := range w.First {
				if w.Of[i] != int32(v) || w.Rest[v] != rest[i] {
					t.Errorf("welded vertex %d: first copy %d maps to %d", v, i, w.Of[i])
				}
			}
			if len(w.Tris) != 2 {
				t.Fatalf("%d triangles", len(w.Tris))
			}
			for i, v := range w.Of {
				for f := 0; f < 2; f++ {
					if d := w.Frames[f*tc.verts+int(v)].Dist(move(tc.drift)[f*6+i]); d > 0.05 {
						t.Errorf("vertex %d frame %d: welded copy %.3f away", i, f, d)
					}
				}
			}
		})
	}
	// A triangle whose corners weld together is dropped.
	w := Weld([]linalg.Vec3{{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, nil, [][3]int{{0, 1, 2}}, 0, 1e-9, 0.05)
	if len(w.Tris) != 0 || len(w.Rest) != 2 {
		t.Errorf("degenerate triangle kept: %d triangles, %d vertices", len(w.Tris), len(w.Rest))
	}
}

// TestWeldedInput checks that a mesh with no coincident vertices comes
// back unchanged: the identity map, the same positions and triangles.
func TestWeldedInput(t *testing.T) {
	rest := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 1e-3}}
	tris := [][3]int{{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}}
	frames := append(slices.Clone(rest), rest...)
	w := Weld(rest, frames, tris, 2, Tolerance, Tear)
	if w.Merged() != 0 || !slices.Equal(w.Rest, rest) || !slices.Equal(w.Frames, frames) || !slices.Equal(w.Tris, tris) {
		t.Fatalf("welded input changed: %+v", w)
	}
	for i, v := range w.Of {
		if int(v) != i || int(w.First[i]) != i {
			t.Fatalf("map %v, first %v: not the identity", w.Of, w.First)
		}
	}
}

func TestSpread(t *testing.T) {
	// Input vertices 0 and 2 are welded vertex 0; 1 is welded vertex 1.
	w := &Result{Of: []int32{0, 1, 0}}
	got := Spread(w, []float64{1, 2, 3, 4}, 2)
	if want := []float64{1, 2, 3, 4, 1, 2}; !slices.Equal(got, want) {
		t.Errorf("Spread = %v, want %v", got, want)
	}
}

// TestSeams checks that Seams welds a cut (the soup square) but not two
// closed surfaces that touch at one vertex, which Weld merges.
func TestSeams(t *testing.T) {
	rest := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}}
	tris := [][3]int{{0, 1, 2}, {3, 4, 5}}
	if w := Seams(rest, nil, tris, 0, 1e-9, 0.05); w.Merged() != 2 {
		t.Errorf("soup: %d vertices welded, want 2", w.Merged())
	}
	// Two closed tetrahedra whose apexes (0 and 4) coincide.
	rest = []linalg.Vec3{{0, 0, 0}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 1}, {0, 0, 0}, {1, 0, -1}, {-1, 0, -1}, {0, 1, -1}}
	tris = [][3]int{{0, 1, 2}, {0, 2, 3}, {0, 3, 1}, {1, 3, 2}, {4, 6, 5}, {4, 7, 6}, {4, 5, 7}, {5, 6, 7}}
	if w := Seams(rest, nil, tris, 0, 1e-9, 0.05); w.Merged() != 0 || !slices.Equal(w.Tris, tris) {
		t.Errorf("pinch: %d vertices welded by Seams, want 0", w.Merged())
	}
	if w := Weld(rest, nil, tris, 0, 1e-9, 0.05); w.Merged() != 1 || w.Of[4] != w.Of[0] {
		t.Errorf("pinch: Weld map %v, want vertex 4 welded to 0", w.Of)
	}
}
