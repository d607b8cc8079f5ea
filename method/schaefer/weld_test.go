package schaefer

import (
	"context"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/internal/testmesh"
	"github.com/meshrig/meshrig/internal/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// TestSeamedCharacters rigs generated characters cut along seams — a
// triangle soup (as Fox.glb), and two pieces split front from back along
// every limb — and checks the rig is the welded character's: as many
// bones, a small error on the cut input's every vertex, and each copy of
// a vertex with the same weights.
func TestSeamedCharacters(t *testing.T) {
	for _, tc := range []struct {
		kind testmesh.Kind
		cut  string
	}{{testmesh.Quadruped, "soup"}, {testmesh.Biped, "front/back"}} {
		t.Run(string(tc.kind)+"/"+tc.cut, func(t *testing.T) {
			truth, err := testmesh.Generate(tc.kind, testmesh.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := testmesh.Sequence(truth)
			cut := testmesh.Soup(s)
			if tc.cut != "soup" {
				c := mesh.Centroid(s.Rest.Verts)
				cut = testmesh.Split(s, func(t int) int {
					if s.Rest.Verts[s.Rest.Tris[t][0]][2] > c[2] {
						return 1
					}
					return 0
				})
			}
			whole, err := Rig(context.Background(), s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var notes []string
			r, err := Rig(context.Background(), cut, Options{Notes: func(m string) { notes = append(notes, m) }})
			if err != nil {
				t.Fatal(err)
			}
			rep, want := check(t, cut, r), check(t, s, whole)
			t.Logf("%d → %d vertices: %d bones (welded %d), RMSE%% %.3f (welded %.3f); %q",
				s.N(), cut.N(), rep.Bones, want.Bones, rep.RMSEPercent, want.RMSEPercent, notes)
			if len(r.Skin) != cut.N() {
				t.Fatalf("%d weights for %d vertices", len(r.Skin), cut.N())
			}
			if rep.Bones != want.Bones {
				t.Errorf("%d bones, the welded character has %d", rep.Bones, want.Bones)
			}
			if rep.RMSEPercent > 0.5 {
				t.Errorf("RMSE%% %.3f on exact LBS data", rep.RMSEPercent)
			}
			if len(notes) == 0 || !strings.Contains(notes[0], "welded") {
				t.Errorf("no note of the weld: %q", notes)
			}
			sameCopies(t, s, cut, r.Skin)
		})
	}
}

// TestSeamedFreeForm: the free form of a triangle soup covers every
// vertex, copies alike.
func TestSeamedFreeForm(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 12, linalg.Vec3{}))
	soup := testmesh.Soup(s)
	r, err := Rig(context.Background(), soup, Options{Bones: 3, Free: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	rep, err := metric.Compare(soup, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Skin) != soup.N() || rep.RMSEPercent > 1 {
		t.Errorf("%d weights for %d vertices, RMSE%% %.3f", len(r.Skin), soup.N(), rep.RMSEPercent)
	}
	sameCopies(t, s, soup, r.Skin)
}

// sameCopies checks that every copy of a vertex in cut (a triangle
// corner of s) carries the weights of the vertex s's corner had.
func sameCopies(t *testing.T, s, cut *seq.Sequence, skin rig.Skin) {
	t.Helper()
	first := make([]int, s.N()) // the cut vertex each s vertex was seen as first
	for i := range first {
		first[i] = -1
	}
	for tr, tri := range cut.Rest.Tris {
		for k, v := range tri {
			o := s.Rest.Tris[tr][k]
			if first[o] < 0 {
				first[o] = v
			} else if skin[v] != skin[first[o]] {
				t.Fatalf("copies %d and %d of vertex %d weigh differently", v, first[o], o)
			}
		}
	}
}
