package aguiar

import (
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
			w := weld(rest, move(tc.drift), tris, 2, 1e-9, 0.05)
			if len(w.Rest) != tc.verts || len(w.Frames) != 2*tc.verts {
				t.Fatalf("%d welded vertices, %d frame positions; want %d", len(w.Rest), len(w.Frames), tc.verts)
			}
			if (w.Of[0] == w.Of[3]) != tc.shared || w.Of[2] != w.Of[4] {
				t.Errorf("welding map %v", w.Of)
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
	w := weld([]linalg.Vec3{{0, 0, 0}, {0, 0, 0}, {1, 0, 0}}, nil, [][3]int{{0, 1, 2}}, 0, 1e-9, 0.05)
	if len(w.Tris) != 0 || len(w.Rest) != 2 {
		t.Errorf("degenerate triangle kept: %d triangles, %d vertices", len(w.Tris), len(w.Rest))
	}
}
