package character

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/seq"
)

var kinds = []Kind{Biped, Quadruped, Hand, Snake}

func TestCharacters(t *testing.T) {
	for _, k := range kinds {
		t.Run(string(k), func(t *testing.T) {
			r, err := Generate(k, Options{})
			if err != nil {
				t.Fatal(err)
			}
			m := r.Mesh
			top := mesh.NewTopology(m)
			t.Logf("%s: %d vertices, %d triangles, %d joints", k, len(m.Verts), len(m.Tris), r.Skeleton.Len())
			if len(m.Verts) < 2000 || len(m.Verts) > 8000 {
				t.Errorf("%d vertices, want 2k–8k", len(m.Verts))
			}
			if top.NumComponents != 1 {
				t.Errorf("%d components, want 1", top.NumComponents)
			}
			// Closed and manifold: every edge on exactly two triangles.
			count := map[[2]int]int{}
			for _, tr := range m.Tris {
				for e := 0; e < 3; e++ {
					a, b := tr[e], tr[(e+1)%3]
					if a > b {
						a, b = b, a
					}
					count[[2]int{a, b}]++
				}
			}
			for e, c := range count {
				if c != 2 {
					t.Fatalf("edge %v is on %d triangles", e, c)
				}
			}
			// Outward: the signed volume is positive.
			var vol float64
			for _, tr := range m.Tris {
				vol += m.Verts[tr[0]].Dot(m.Verts[tr[1]].Cross(m.Verts[tr[2]])) / 6
			}
			if vol <= 0 {
				t.Errorf("signed volume %v: faces point inward", vol)
			}
			// Every joint owns a region; weights are smooth (some blend).
			owns := make([]bool, r.Skeleton.Len())
			blended := 0
			for _, in := range r.Skin {
				owns[in.Dominant()] = true
				if in.Weight[1] > 0.2 {
					blended++
				}
			}
			for j, ok := range owns {
				if !ok {
					t.Errorf("joint %s dominates no vertex", r.Skeleton.Joints[j].Name)
				}
			}
			if blended < len(r.Skin)/50 {
				t.Errorf("only %d vertices blend two joints: weights look rigid", blended)
			}
			if !r.Skeletal() {
				t.Error("bones are not rigid")
			}
			s := Sequence(r)
			rep, err := metric.Compare(s, r)
			if err != nil || rep.RMSEPercent > 1e-5 { // float32 frames: their rounding
				t.Fatalf("replay: %v, RMSE%% %v", err, rep.RMSEPercent)
			}
			// It moves, smoothly.
			d := s.Diagonal()
			var maxMove, maxStep float64
			for f := 0; f < s.F(); f++ {
				for i, v := range s.FrameInto(nil, f) {
					maxMove = math.Max(maxMove, v.Dist(s.Rest.Verts[i]))
					if f > 0 {
						maxStep = math.Max(maxStep, v.Dist(s.FrameInto(nil, f-1)[i]))
					}
				}
			}
			if maxMove < 0.05*d {
				t.Errorf("largest displacement %.3g·d: barely moves", maxMove/d)
			}
			if maxStep > 0.25*maxMove {
				t.Errorf("frame-to-frame step %.3g of a %.3g range: not smooth", maxStep, maxMove)
			}
		})
	}
}

func TestDeterministicAndSeeded(t *testing.T) {
	a, _ := Generate(Snake, Options{Frames: 10})
	b, _ := Generate(Snake, Options{Frames: 10})
	c, _ := Generate(Snake, Options{Frames: 10, Seed: 2})
	for k := range a.Clips[0].Rotation {
		if a.Clips[0].Rotation[k] != b.Clips[0].Rotation[k] {
			t.Fatal("same seed, different motion")
		}
	}
	same := true
	for k := range a.Clips[0].Rotation {
		same = same && a.Clips[0].Rotation[k] == c.Clips[0].Rotation[k]
	}
	if same {
		t.Error("different seeds, same motion")
	}
	for i := range a.Mesh.Verts {
		if a.Mesh.Verts[i] != b.Mesh.Verts[i] {
			t.Fatal("same options, different mesh")
		}
	}
}

func TestShells(t *testing.T) {
	for _, k := range kinds {
		r, err := Generate(k, Options{Shells: true, Frames: 4})
		if err != nil {
			t.Fatal(err)
		}
		if n := mesh.NewTopology(r.Mesh).NumComponents; n < 2 {
			t.Errorf("%s with shells: %d components", k, n)
		}
	}
}

func TestParseKind(t *testing.T) {
	if _, err := ParseKind("Biped"); err != nil {
		t.Error(err)
	}
	if _, err := ParseKind("dragon"); err == nil {
		t.Error("unknown kind accepted")
	}
}

func BenchmarkGenerate(b *testing.B) {
	for _, k := range kinds {
		b.Run(string(k), func(b *testing.B) {
			for b.Loop() {
				if _, err := Generate(k, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestSplit(t *testing.T) {
	r, err := Generate(Snake, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := Sequence(r)
	n, nt := s.N(), len(s.Rest.Tris)
	// Two pieces, cut across the middle of the body.
	cut := Split(s, func(t int) int {
		if s.Rest.Verts[s.Rest.Tris[t][0]][0] < 0 {
			return 0
		}
		return 1
	})
	soup := Soup(s)
	for _, tc := range []struct {
		name       string
		out        *seq.Sequence
		components int
	}{{"cut", cut, 2}, {"soup", soup, nt}} {
		out := tc.out
		if err := out.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(out.Rest.Tris) != nt || out.F() != s.F() || out.N() <= n {
			t.Fatalf("%s: %d vertices, %d triangles, %d frames", tc.name, out.N(), len(out.Rest.Tris), out.F())
		}
		if c := mesh.NewTopology(out.Rest).NumComponents; c != tc.components {
			t.Errorf("%s: %d components, want %d", tc.name, c, tc.components)
		}
		// Every corner is where the original's is, in every frame, and
		// the first n vertices are the original's.
		for tr, tri := range out.Rest.Tris {
			for k, v := range tri {
				o := s.Rest.Tris[tr][k]
				for f := 0; f < s.F(); f++ {
					if out.Frames[f*out.N()+v] != s.Frames[f*n+o] {
						t.Fatalf("%s: triangle %d corner %d moves apart in frame %d", tc.name, tr, k, f)
					}
				}
			}
		}
		for i := 0; i < n; i++ {
			if out.Rest.Verts[i] != s.Rest.Verts[i] {
				t.Fatalf("%s: vertex %d moved", tc.name, i)
			}
		}
	}
	if soup.N() != 3*nt {
		t.Errorf("soup: %d vertices, want 3 per triangle (%d)", soup.N(), 3*nt)
	}
}
