package skinweights

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
	"github.com/meshrig/meshrig/rig"
)

// fromRig is the static skeleton of a rig's skeleton: its heads and
// parent edges, rooted at joint 0.
func fromRig(sk *rig.Skeleton) *static.Skeleton {
	s := &static.Skeleton{}
	for j, jt := range sk.Joints {
		s.Joints = append(s.Joints, jt.Head)
		if jt.Parent != rig.NoParent {
			s.Edges = append(s.Edges, [2]int{int(jt.Parent), j})
		}
	}
	return s
}

// chain is a static skeleton of joints along x at xs, linked in order.
func chain(xs ...float64) *static.Skeleton {
	s := &static.Skeleton{}
	for j, x := range xs {
		s.Joints = append(s.Joints, linalg.Vec3{x, 0, 0})
		if j > 0 {
			s.Edges = append(s.Edges, [2]int{j - 1, j})
		}
	}
	return s
}

func biped(t testing.TB, shells bool) *rig.Rig {
	r, err := character.Generate(character.Biped, character.Options{Frames: 2, Shells: shells})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestInvariants: every scheme gives every vertex at most MaxInfluences
// distinct joints of the skeleton, non-negative weights summing to one.
func TestInvariants(t *testing.T) {
	r := biped(t, true)
	s := fromRig(&r.Skeleton)
	for _, scheme := range append(Schemes(), "") {
		for _, maxInf := range []int{0, 1, 2, 4} {
			skin, err := Compute(r.Mesh, s, scheme, Options{MaxInfluences: maxInf})
			if err != nil {
				t.Fatalf("%s: %v", scheme, err)
			}
			if len(skin) != len(r.Mesh.Verts) {
				t.Fatalf("%s: %d influences for %d vertices", scheme, len(skin), len(r.Mesh.Verts))
			}
			if err := skin.Validate(len(s.Joints)); err != nil {
				t.Fatalf("%s, max %d: %v", scheme, maxInf, err)
			}
			limit := maxInf
			if limit == 0 {
				limit = 4
			}
			if scheme == Rigid {
				limit = 1
			}
			for i, in := range skin {
				used := 0
				for _, w := range in.Weight {
					if w > 0 {
						used++
					}
				}
				if used > limit {
					t.Fatalf("%s, max %d: vertex %d has %d influences", scheme, maxInf, i, used)
				}
			}
		}
	}
}

// TestHeatPartitionOfUnity: Σ_b p_b = 1 and L·1 = 0, so the raw heat
// weights of every vertex sum to one; the system is an M-matrix, so they
// are non-negative.
func TestHeatPartitionOfUnity(t *testing.T) {
	r := biped(t, true)
	s := fromRig(&r.Skeleton)
	hs, err := NewHeatSolver(r.Mesh.Verts, r.Mesh.Tris)
	if err != nil {
		t.Fatal(err)
	}
	nj := len(s.Joints)
	w, err := hs.Solve(r.Mesh.Verts, bones(s, s.Joints), nj)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Mesh.Verts {
		var sum float64
		for j := 0; j < nj; j++ {
			v := w[i*nj+j]
			if v < -1e-9 {
				t.Fatalf("vertex %d: weight %g of joint %d", i, v, j)
			}
			sum += v
		}
		if math.Abs(sum-1) > 1e-6 {
			t.Fatalf("vertex %d: raw heat weights sum to %v", i, sum)
		}
	}
}

// ringWeights returns, per ring of testrig.Tube (61 rings of 16 vertices
// along x = 0…3), the mean weight of each joint.
func ringWeights(skin rig.Skin, joints int) [][]float64 {
	const rings, around = 61, 16
	out := make([][]float64, rings)
	for r := range out {
		out[r] = make([]float64, joints)
		for a := 0; a < around; a++ {
			in := skin[r*around+a]
			for k, w := range in.Weight {
				out[r][in.Joint[k]] += w / around
			}
		}
	}
	return out
}

// TestTubeBlendsAtTheJoint: a tube of length 3 with two bones meeting at
// x = 1.5. Heat and geodesic weights change gradually along the tube (no
// ring-to-ring jump above 0.2: rigid binding jumps by 1) and blend the
// two sides at the joint; heat gives each end wholly to its bone.
func TestTubeBlendsAtTheJoint(t *testing.T) {
	tube := testrig.Tube(t, 1, linalg.Vec3{})
	s := chain(0, 1.5, 3)
	for _, scheme := range []Scheme{Heat, Geodesic, Rigid} {
		skin, err := Compute(tube.Mesh, s, scheme, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rw := ringWeights(skin, 3)
		jump := 0.0
		for r := 1; r < len(rw); r++ {
			for j := 0; j < 3; j++ {
				jump = math.Max(jump, math.Abs(rw[r][j]-rw[r-1][j]))
			}
		}
		mid := rw[30] // x = 1.5
		t.Logf("%s: largest ring-to-ring change %.3f; at the joint %.3f", scheme, jump, mid)
		switch scheme {
		case Rigid:
			// Nearest bone: rings before the joint follow joint 0, after
			// it joint 1 — also the rings nearest joint 1's head.
			if rw[29][0] != 1 || rw[31][1] != 1 {
				t.Errorf("rigid: ring 29 %v, ring 31 %v", rw[29], rw[31])
			}
			continue
		case Heat:
			if rw[2][0] < 0.97 || rw[58][1] < 0.97 || rw[58][2] != 0 {
				t.Errorf("heat: ends %v and %v", rw[2], rw[58])
			}
			if mid[0] < 0.25 || mid[1] < 0.25 {
				t.Errorf("heat: no blend at the joint: %v", mid)
			}
			for r := 1; r < len(rw); r++ {
				if rw[r][1] < rw[r-1][1]-1e-6 {
					t.Errorf("heat: joint 1's weight falls from ring %d to %d: %v → %v", r-1, r, rw[r-1][1], rw[r][1])
				}
			}
		case Geodesic:
			// Joints as points: the middle joint leads at the middle.
			if mid[1] < mid[0] || mid[1] < mid[2] || rw[0][0] < rw[0][1] || rw[60][2] < rw[60][1] {
				t.Errorf("geodesic: start %v, middle %v, end %v", rw[0], mid, rw[60])
			}
		}
		if jump > 0.2 {
			t.Errorf("%s: weights jump by %.3f between neighbouring rings", scheme, jump)
		}
	}
}

// TestDistanceFormula: a vertex 1, 2, 3 and 4 from four joints gets
// Liu et al.'s (D − d)/(3D) = 9/30, 8/30, 7/30, 6/30.
func TestDistanceFormula(t *testing.T) {
	m, err := mesh.New([]linalg.Vec3{{0, 0, 0}, {0.1, 0, 0}, {0, 0.1, 0}}, [][]int{{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	s := &static.Skeleton{Joints: []linalg.Vec3{{0, 0, 3}, {-4, 0, 0}, {0, 0, -1}, {0, -2, 0}, {9, 9, 9}},
		Edges: [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}}}
	skin, err := Compute(m, s, Distance, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[rig.JointID]float64{2: 9.0 / 30, 3: 8.0 / 30, 0: 7.0 / 30, 1: 6.0 / 30}
	in := skin[0]
	for k, j := range in.Joint {
		if math.Abs(in.Weight[k]-want[j]) > 1e-12 {
			t.Fatalf("influence %v, want %v", in, want)
		}
	}
}

// octahedron is a closed shell of radius r around c.
func octahedron(c linalg.Vec3, r float64, base int) ([]linalg.Vec3, [][]int) {
	v := []linalg.Vec3{{r, 0, 0}, {-r, 0, 0}, {0, r, 0}, {0, -r, 0}, {0, 0, r}, {0, 0, -r}}
	for i := range v {
		v[i] = v[i].Add(c)
	}
	var f [][]int
	for _, x := range [2]int{0, 1} {
		for _, y := range [2]int{2, 3} {
			for _, z := range [2]int{4, 5} {
				f = append(f, []int{base + x, base + y, base + z})
			}
		}
	}
	return v, f
}

// TestGeodesicSeparateShell: a small shell floating beside a tube holds
// no joint's nearest vertex; it is still reached — from the joints'
// nearest vertices on it — and follows the joint beside it.
func TestGeodesicSeparateShell(t *testing.T) {
	tube := testrig.Tube(t, 1, linalg.Vec3{})
	verts := append([]linalg.Vec3(nil), tube.Mesh.Verts...)
	var polys [][]int
	for k := 0; k < tube.Mesh.NumPolys(); k++ {
		polys = append(polys, tube.Mesh.Poly(k))
	}
	ov, of := octahedron(linalg.Vec3{1.5, 0.7, 0}, 0.1, len(verts))
	m, err := mesh.New(append(verts, ov...), append(polys, of...))
	if err != nil {
		t.Fatal(err)
	}
	s := chain(0, 1.5, 3)
	for _, scheme := range Schemes() {
		skin, err := Compute(m, s, scheme, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := len(verts); i < len(m.Verts); i++ {
			in := skin[i]
			if scheme != Heat && scheme != Rigid && in.Dominant() != 1 {
				t.Errorf("%s: shell vertex %d follows joint %d (%v), want 1", scheme, i, in.Dominant(), in)
			}
			if in.Weight[0] <= 0 || math.IsNaN(in.Weight[0]) {
				t.Errorf("%s: shell vertex %d unweighted: %v", scheme, i, in)
			}
		}
	}
}

// TestScaleInvariant: scaling and moving the model and its skeleton
// together changes no weight.
func TestScaleInvariant(t *testing.T) {
	r := biped(t, false)
	s := fromRig(&r.Skeleton)
	m2 := r.Mesh.Clone()
	s2 := &static.Skeleton{Edges: s.Edges, Root: s.Root}
	move := func(p linalg.Vec3) linalg.Vec3 { return p.Scale(37).Add(linalg.Vec3{5, -3, 100}) }
	for i, p := range m2.Verts {
		m2.Verts[i] = move(p)
	}
	for _, p := range s.Joints {
		s2.Joints = append(s2.Joints, move(p))
	}
	for _, scheme := range Schemes() {
		a, err := Compute(r.Mesh, s, scheme, Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Compute(m2, s2, scheme, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range a {
			// Compare joint → weight: equal weights may come in either order.
			wa, wb := map[rig.JointID]float64{}, map[rig.JointID]float64{}
			for k := range a[i].Weight {
				wa[a[i].Joint[k]] += a[i].Weight[k]
				wb[b[i].Joint[k]] += b[i].Weight[k]
			}
			for j, w := range wa {
				if math.Abs(w-wb[j]) > 1e-6 {
					t.Fatalf("%s: vertex %d: %v vs %v", scheme, i, a[i], b[i])
				}
			}
		}
	}
}

// TestDeformsLikeTheTruth drives the generated biped's true skeleton
// with its true motion through weights computed from the rest mesh only
// and measures RMSE% against the frames the true weights make. Heat
// weights follow the bones best (0.47% today; rigid 0.57, geodesic 2.1,
// distance 4.6: joint-point schemes blend across the middle of bones).
func TestDeformsLikeTheTruth(t *testing.T) {
	truth, err := character.Generate(character.Biped, character.Options{Frames: 20})
	if err != nil {
		t.Fatal(err)
	}
	s := fromRig(&truth.Skeleton)
	d := mesh.Diagonal(truth.Mesh.Verts)
	rmse := func(skin rig.Skin) float64 {
		r := *truth
		r.Skin = skin
		var sum float64
		var cnt int
		for f := 0; f < truth.Clips[0].Frames; f++ {
			want, got := truth.Frame(nil, 0, f), r.Frame(nil, 0, f)
			for i := range want {
				d := want[i].Dist(got[i])
				sum += d * d
				cnt++
			}
		}
		return 100 * math.Sqrt(sum/float64(cnt)) / d
	}
	errs := map[Scheme]float64{}
	for _, scheme := range Schemes() {
		skin, err := Compute(truth.Mesh, s, scheme, Options{})
		if err != nil {
			t.Fatal(err)
		}
		errs[scheme] = rmse(skin)
		t.Logf("%-8s RMSE%% %.3f", scheme, errs[scheme])
	}
	if e := errs[Heat]; e > 1 || e > errs[Rigid] || e > errs[Geodesic] || e > errs[Distance] {
		t.Errorf("heat weights deform with RMSE%% %.3f (others %v)", e, errs)
	}
}

// TestRefuses: bad skeletons and meshes are errors, not panics.
func TestRefuses(t *testing.T) {
	tube := testrig.Tube(t, 1, linalg.Vec3{})
	points, _ := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}}, nil)
	nan := chain(0, 1)
	nan.Joints[1][0] = math.NaN()
	for name, c := range map[string]struct {
		m      *mesh.Mesh
		s      *static.Skeleton
		scheme Scheme
	}{
		"no joints":    {tube.Mesh, &static.Skeleton{}, Heat},
		"disconnected": {tube.Mesh, &static.Skeleton{Joints: make([]linalg.Vec3, 2)}, Heat},
		"nan joint":    {tube.Mesh, nan, Geodesic},
		"no mesh":      {nil, chain(0, 1), Heat},
		"no triangles": {points, chain(0, 1), Heat},
		"scheme":       {tube.Mesh, chain(0, 1), "bones"},
	} {
		if _, err := Compute(c.m, c.s, c.scheme, Options{}); err == nil {
			t.Errorf("%s accepted", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	// A mesh of points still gets the schemes that need no surface.
	for _, scheme := range []Scheme{Rigid, Distance, Geodesic} {
		skin, err := Compute(points, chain(0, 1), scheme, Options{})
		if err != nil || skin.Validate(2) != nil {
			t.Errorf("%s on points: %v", scheme, err)
		}
	}
}
