package rigcheck

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/gltf" // the characters are .glb
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/metric"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// RigFunc rigs s with a method's options, notes going to notes.
type RigFunc func(s *seq.Sequence, notes method.Notes) (*rig.Rig, error)

// Seamed rigs a generated character of kind cut along seams into a
// triangle soup (Soup true, as Fox.glb) or into front and back pieces
// along every limb, and checks the rig is the welded character's: as
// many bones, RMSE% at most maxRMSE on the cut input's every vertex, a
// note of the weld, and every copy of a vertex weighted alike.
func Seamed(t *testing.T, kind character.Kind, soup bool, maxRMSE float64, rigf RigFunc) {
	t.Helper()
	truth, err := character.Generate(kind, character.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := character.Sequence(truth)
	cut := character.Soup(s)
	if !soup {
		c := mesh.Centroid(s.Rest.Verts)
		cut = character.Split(s, func(t int) int {
			if s.Rest.Verts[s.Rest.Tris[t][0]][2] > c[2] {
				return 1
			}
			return 0
		})
	}
	whole, err := rigf(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	r, err := rigf(cut, func(m string) { notes = append(notes, m) })
	if err != nil {
		t.Fatal(err)
	}
	rep, want := Check(t, cut, r), Check(t, s, whole)
	t.Logf("%d → %d vertices: %d bones (welded %d), RMSE%% %.3f (welded %.3f); %q",
		s.N(), cut.N(), rep.Bones, want.Bones, rep.RMSEPercent, want.RMSEPercent, notes)
	if len(r.Skin) != cut.N() {
		t.Fatalf("%d weights for %d vertices", len(r.Skin), cut.N())
	}
	if rep.Bones != want.Bones {
		t.Errorf("%d bones, the welded character has %d", rep.Bones, want.Bones)
	}
	if rep.RMSEPercent > maxRMSE {
		t.Errorf("RMSE%% %.3f on exact LBS data", rep.RMSEPercent)
	}
	if len(notes) == 0 || !strings.Contains(notes[0], "welded") {
		t.Errorf("no note of the weld: %q", notes)
	}
	SameCopies(t, s, cut, r.Skin)
}

// SameCopies checks that every copy of a vertex in cut (a triangle
// corner of s) carries the weights of the vertex s's corner had.
func SameCopies(t *testing.T, s, cut *seq.Sequence, skin rig.Skin) {
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

// Skinned bounds a method's rig of one skinned glTF character of the
// shared data (Name.glb, sampled): its bone count, RMSE%, joint error%
// against the file's deforming joints and, when set, ACCU%.
type Skinned struct {
	Name                   string
	Bones                  [2]int
	RMSE, JointError, ACCU float64
}

// Run rigs the character and checks the bounds; it skips t when the
// shared data is absent.
func (c Skinned) Run(t *testing.T, rigf RigFunc) {
	t.Helper()
	in, err := format.Load([]string{shareddata.Path(t, filepath.Join("gltf", c.Name+".glb"))}, format.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := rigf(in.Sequence, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := Check(t, in.Sequence, r)
	truth := metric.DeformingHeads(in.Truth)
	je := metric.JointError(metric.Heads(&r.Skeleton), truth, rep.Diagonal)
	t.Logf("%s: %d bones (truth %d), RMSE%% %.3f, ACCU%% %.3f, joint error%% %.2f", c.Name, rep.Bones, len(truth), rep.RMSEPercent, rep.ACCUPercent, je)
	if rep.Bones < c.Bones[0] || rep.Bones > c.Bones[1] {
		t.Errorf("%d bones, want %d–%d", rep.Bones, c.Bones[0], c.Bones[1])
	}
	if rep.RMSEPercent > c.RMSE {
		t.Errorf("RMSE%% %.3f above %.2f", rep.RMSEPercent, c.RMSE)
	}
	if c.ACCU > 0 && rep.ACCUPercent > c.ACCU {
		t.Errorf("ACCU%% %.3f above %.2f", rep.ACCUPercent, c.ACCU)
	}
	if je > c.JointError {
		t.Errorf("joint error%% %.2f above %.2f", je, c.JointError)
	}
}
