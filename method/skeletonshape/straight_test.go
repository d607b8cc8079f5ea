package skeletonshape

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/metric"
)

// chainSkeleton is a chain along x through xs (bent by dy at index bend
// when bend ≥ 0), rooted at its first joint.
func chainSkeleton(xs []float64, bend int, dy float64) *static.Skeleton {
	s := &static.Skeleton{}
	for k, x := range xs {
		p := linalg.Vec3{x, 0, 0}
		if k == bend {
			p[1] = dy
		}
		s.Joints = append(s.Joints, p)
		if k > 0 {
			s.Edges = append(s.Edges, [2]int{k - 1, k})
		}
	}
	return s
}

func constant(n int, r float64) []float64 {
	out := make([]float64, n)
	for j := range out {
		out[j] = r
	}
	return out
}

// TestStraighten: joints closer than their thicknesses along a straight
// tube go, a tube sampled a diameter apart or more (a snake's vertebrae)
// keeps them, a bend goes only when one joint is inside the other's
// ball, and a limb keeps its last inner joint.
func TestStraighten(t *testing.T) {
	for _, c := range []struct {
		name    string
		xs      []float64
		bend    int
		dy      float64
		r       float64
		removed int
	}{
		// Tip, then joints 0.5 apart in a tube of radius 0.4: all but the
		// last inner one (the limb's knee) go.
		{"dense", []float64{0, 1, 1.5, 2, 2.5, 3, 4}, -1, 0, 0.4, 4},
		// Joints 1 apart, radius 0.4: balls do not overlap, all stay.
		{"sparse", []float64{0, 1, 2, 3, 4, 5}, -1, 0, 0.4, 0},
		// Two joints within each other's balls, at a sharp angle: one
		// goes (the other is then the limb's last inner joint).
		{"inside", []float64{0, 1, 1.2, 2.2}, 2, 0.15, 0.4, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := chainSkeleton(c.xs, c.bend, c.dy)
			got, removed := Straighten(s, constant(len(s.Joints), c.r), nil, 5)
			if removed != c.removed || len(got.Joints) != len(s.Joints)-c.removed {
				t.Errorf("removed %d (%d joints left), want %d", removed, len(got.Joints), c.removed)
			}
			if err := got.Validate(); err != nil {
				t.Fatal(err)
			}
			// Ends stay.
			if got.Joints[0] != s.Joints[0] || !contains3(got.Joints, s.Joints[len(s.Joints)-1]) {
				t.Error("an end moved or went")
			}
		})
	}
}

func contains3(ps []linalg.Vec3, p linalg.Vec3) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// TestStraightenSymmetric: on a symmetric skeleton joints go in mirrored
// pairs, so it stays symmetric.
func TestStraightenSymmetric(t *testing.T) {
	pl := Plane{Normal: linalg.Vec3{1, 0, 0}}
	s := &static.Skeleton{Joints: []linalg.Vec3{{0, 0, 0}, {0, 2, 0}}, Edges: [][2]int{{0, 1}}}
	for _, side := range []float64{1, -1} {
		prev := 0
		for k, x := range []float64{0.5, 0.9, 1.3, 1.7, 2.5} {
			s.Joints = append(s.Joints, linalg.Vec3{side * x, -0.1 * float64(k), 0})
			s.Edges = append(s.Edges, [2]int{prev, len(s.Joints) - 1})
			prev = len(s.Joints) - 1
		}
	}
	got, removed := Straighten(s, constant(len(s.Joints), 0.3), &pl, 4)
	if removed == 0 || removed%2 != 0 {
		t.Errorf("removed %d joints, want a positive even number", removed)
	}
	if res := MirrorResidual(got, pl, 4); res > 1e-9 {
		t.Errorf("mirror residual %g%% after straightening", res)
	}
}

// TestSplitStarsKeepsPairs: a star with the pelvis on one side and both
// arms and the neck on the other moves the arms and the neck together
// under a new chest joint (a cut between the two arms, level with each
// other, would part a mirrored pair), leaving no joint over three
// children and the skeleton symmetric.
func TestSplitStarsKeepsPairs(t *testing.T) {
	v := func(x, y float64) linalg.Vec3 { return linalg.Vec3{x, y, 0} }
	s := &static.Skeleton{
		Joints: []linalg.Vec3{v(0, 0), v(0, -1), v(0.5, 0.5), v(-0.5, 0.5), v(0, 1)}, // star, pelvis, arms, neck
		Edges:  [][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}},
	}
	// Two legs on the pelvis side make the star five children.
	s.Joints = append(s.Joints, v(0.3, -0.8), v(-0.3, -0.8))
	s.Edges = append(s.Edges, [2]int{0, 5}, [2]int{0, 6})
	pl := Plane{Normal: linalg.Vec3{1, 0, 0}}
	if added := SplitStars(s, linalg.Vec3{0, 1, 0}, &pl, 3); added == 0 {
		t.Fatal("nothing split")
	}
	parent, order := s.Tree()
	kids := make([]int, len(s.Joints))
	for _, j := range order[1:] {
		kids[parent[j]]++
	}
	for j, k := range kids {
		if k > maxChildren {
			t.Errorf("joint %d has %d children", j, k)
		}
	}
	if parent[2] != parent[3] {
		t.Errorf("the arms hang from joints %d and %d, want one", parent[2], parent[3])
	}
	if res := MirrorResidual(s, pl, 3); res > 1e-9 {
		t.Errorf("mirror residual %g%%", res)
	}
}

// shapedTruth returns the generated character's true skeleton moved off
// its symmetry by about 1% of the diagonal, shaped (as TestShapeGenerated
// does), with its mesh and true joints.
func shapedTruth(t *testing.T, k character.Kind, nv int) (*mesh.Mesh, *static.Skeleton, []linalg.Vec3) {
	t.Helper()
	r, err := character.Generate(k, character.Options{Vertices: nv, Frames: 1})
	if err != nil {
		t.Fatal(err)
	}
	d := mesh.Diagonal(r.Mesh.Verts)
	truth := metric.Heads(&r.Skeleton)
	s := &static.Skeleton{Joints: append([]linalg.Vec3(nil), truth...)}
	for j, jt := range r.Skeleton.Joints {
		s.Joints[j] = s.Joints[j].Add(linalg.Vec3{0.01 * d * math.Sin(float64(3*j)), 0.01 * d * math.Cos(float64(5*j)), 0})
		if jt.Parent >= 0 {
			s.Edges = append(s.Edges, [2]int{int(jt.Parent), j})
		}
	}
	got, err := Shape(context.Background(), r.Mesh, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r.Mesh, got, truth
}

// TestHipsRoot: a named biped or quadruped hangs from its hips (or the
// spine joint next to them when the hips would have more than three
// children), not where the volume is centred — a quadruped's shoulders.
func TestHipsRoot(t *testing.T) {
	for _, k := range []character.Kind{character.Biped, character.Quadruped} {
		_, s, _ := shapedTruth(t, k, 3000)
		if s.Names == nil {
			t.Fatalf("%s: not named", k)
		}
		root := s.Names[s.Root]
		if root != "hips" && !strings.HasPrefix(root, "spine") {
			t.Errorf("%s: root %q, want the hips", k, root)
		}
		if root != "hips" {
			adj := adjacency(len(s.Joints), s.Edges)
			for _, j := range adj[s.Root] {
				if s.Names[j] == "hips" {
					return
				}
			}
			t.Errorf("%s: root %q is not next to the hips", k, root)
		}
	}
}

// TestTemplate: --template's layouts on the generated characters — one
// joint per part with the convention's names, near the true joints, the
// root at the hips, mirror-symmetric — and refused, wrapping ErrLayout
// with the reason, on a character of the other layout or with no mirror
// plane.
func TestTemplate(t *testing.T) {
	want := map[string][]string{
		Biped: {"hips", "spine", "chest", "neck", "head", "thigh.L", "shin.L", "foot.L", "thigh.R", "shin.R", "foot.R",
			"upper_arm.L", "forearm.L", "hand.L", "upper_arm.R", "forearm.R", "hand.R"},
	}
	want[Quadruped] = append(append([]string(nil), want[Biped][:5]...), append([]string{"tail"}, want[Biped][5:]...)...)
	for _, c := range []struct {
		kind   character.Kind
		layout string
		bound  float64
	}{{character.Biped, Biped, 4}, {character.Quadruped, Quadruped, 4}} {
		m, s, truth := shapedTruth(t, c.kind, 3000)
		got, err := Template(m, s, c.layout, linalg.Vec3{})
		if err != nil {
			t.Fatalf("%s: %v", c.kind, err)
		}
		if strings.Join(got.Names, " ") != strings.Join(want[c.layout], " ") {
			t.Errorf("%s: names %q, want %q", c.kind, got.Names, want[c.layout])
		}
		if got.Names[got.Root] != "hips" {
			t.Errorf("%s: root %q", c.kind, got.Names[got.Root])
		}
		d := mesh.Diagonal(m.Verts)
		if je := metric.JointError(got.Joints, truth, d); je > c.bound {
			t.Errorf("%s: joint error %.2f%%, want at most %.0f", c.kind, je, c.bound)
		} else {
			t.Logf("%s template: %d joints, joint error %.2f%%", c.kind, len(got.Joints), je)
		}
		pl, _ := MirrorPlane(m)
		if res := MirrorResidual(got, pl, d); res > 1e-6 {
			t.Errorf("%s: mirror residual %g%%", c.kind, res)
		}
		other := Quadruped
		if c.layout == Quadruped {
			other = Biped
		}
		_, err = Template(m, s, other, linalg.Vec3{})
		if !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), "reads as a "+c.layout) {
			t.Errorf("%s as a %s: error %v, want ErrLayout saying it reads as a %s", c.kind, other, err, c.layout)
		}
	}
	r, err := character.Generate(character.Hand, character.Options{Vertices: 2000, Frames: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := &static.Skeleton{Joints: metric.Heads(&r.Skeleton)}
	for j, jt := range r.Skeleton.Joints {
		if jt.Parent >= 0 {
			s.Edges = append(s.Edges, [2]int{int(jt.Parent), j})
		}
	}
	if _, err := Template(r.Mesh, s, Biped, linalg.Vec3{}); !errors.Is(err, ErrLayout) || !strings.Contains(err.Error(), "no mirror plane") {
		t.Errorf("hand as a biped: error %v, want ErrLayout: no mirror plane", err)
	}
	if _, err := Template(r.Mesh, s, "octopus", linalg.Vec3{}); err == nil {
		t.Error("layout octopus accepted")
	}
}

// TestOffStar: a root with four bones (legs, neck and the spine's other
// end) moves to its thickest neighbour of at most three bones, so the
// star keeps three children without a joint added; a star of five bones
// stays (it needs a split either way).
func TestOffStar(t *testing.T) {
	v := func(x, y float64) linalg.Vec3 { return linalg.Vec3{x, y, 0} }
	s := &static.Skeleton{
		Joints: []linalg.Vec3{v(0, 0), v(0.3, -1), v(-0.3, -1), v(0, 1), v(0, -0.5), v(0, -1.5)},
		Edges:  [][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {4, 5}},
	}
	radius := []float64{1, 0.2, 0.2, 0.3, 0.8, 0.5}
	if got := offStar(s, 0, radius, nil); got != 4 {
		t.Errorf("root %d, want the spine joint 4", got)
	}
	s.Joints = append(s.Joints, v(0.5, 0.5))
	s.Edges = append(s.Edges, [2]int{0, 6})
	radius = append(radius, 0.2)
	if got := offStar(s, 0, radius, nil); got != 0 {
		t.Errorf("root %d, want the five-bone star 0 kept", got)
	}
}
