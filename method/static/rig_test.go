package static

import (
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// TestRig: a skeleton rooted in the middle of its list becomes a rig whose
// parents precede children, root first and named "root", and whose skin
// follows the joints it was computed for.
func TestRig(t *testing.T) {
	// A Y: 3 is the root, 0 and 4 hang from it, 1 from 0, 2 from 4; the
	// loop edge 1–2 is cut by the tree.
	s := &Skeleton{
		Joints: []linalg.Vec3{{1, 0, 0}, {2, 0, 0}, {0, 2, 0}, {0, 0, 0}, {0, 1, 0}},
		Edges:  [][2]int{{3, 0}, {0, 1}, {3, 4}, {4, 2}, {1, 2}},
		Root:   3,
	}
	m, err := mesh.New([]linalg.Vec3{{2, 0.1, 0}, {0, 2, 0.1}, {0.1, 0, 0}}, [][]int{{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	skin := rig.Skin{
		{Joint: [4]rig.JointID{1}, Weight: [4]float64{1}},
		{Joint: [4]rig.JointID{2, 4}, Weight: [4]float64{0.75, 0.25}},
		{Joint: [4]rig.JointID{3}, Weight: [4]float64{1}},
	}
	r, err := s.Rig(m, skin)
	if err != nil {
		t.Fatal(err)
	}
	if r.Skeleton.Len() != 5 || r.Skeleton.Joints[0].Name != "root" || r.Skeleton.Joints[0].Head != s.Joints[3] {
		t.Fatalf("skeleton %+v", r.Skeleton)
	}
	// Every skin joint has the head of the joint the skin named.
	for i, in := range r.Skin {
		for k, w := range in.Weight {
			if w > 0 && r.Skeleton.Joints[in.Joint[k]].Head != s.Joints[skin[i].Joint[k]] {
				t.Errorf("vertex %d influence %d moved to the wrong joint", i, k)
			}
		}
	}
	// Tree edges survive as parent links (the cut loop edge does not).
	parent, _ := s.Tree()
	for _, jt := range r.Skeleton.Joints[1:] {
		ph := r.Skeleton.Joints[jt.Parent].Head
		found := false
		for c, p := range parent {
			if p >= 0 && s.Joints[c] == jt.Head && s.Joints[p] == ph {
				found = true
			}
		}
		if !found {
			t.Errorf("joint %s's parent link is not a tree edge", jt.Name)
		}
	}
	if _, err := s.Rig(m, skin[:2]); err == nil {
		t.Error("a short skin accepted")
	}
	bad := append(rig.Skin(nil), skin...)
	bad[0].Joint[0] = 7
	if _, err := s.Rig(m, bad); err == nil {
		t.Error("a skin naming joint 7 of 5 accepted")
	}
}

// TestRigNames: Names follow their joints through the reordering; an
// unnamed joint keeps "joint<i>", a name given twice is used once, and a
// wrong count is refused.
func TestRigNames(t *testing.T) {
	s := &Skeleton{
		Joints: []linalg.Vec3{{1, 0, 0}, {2, 0, 0}, {0, 0, 0}},
		Edges:  [][2]int{{2, 0}, {0, 1}},
		Root:   2,
		Names:  []string{"thigh.L", "thigh.L", "hips"},
	}
	m, err := mesh.New([]linalg.Vec3{{2, 0.1, 0}, {0, 2, 0.1}, {0.1, 0, 0}}, [][]int{{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	skin := rig.Skin{{Joint: [4]rig.JointID{1}, Weight: [4]float64{1}}, {Joint: [4]rig.JointID{0}, Weight: [4]float64{1}}, {Joint: [4]rig.JointID{2}, Weight: [4]float64{1}}}
	r, err := s.Rig(m, skin)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{r.Skeleton.Joints[0].Name, r.Skeleton.Joints[1].Name, r.Skeleton.Joints[2].Name}
	if got[0] != "hips" || got[1] != "thigh.L" || got[2] != "joint2" {
		t.Errorf("names %q, want hips, thigh.L, joint2", got)
	}
	s.Names = s.Names[:2]
	if err := s.Validate(); err == nil {
		t.Error("2 names for 3 joints accepted")
	}
}
