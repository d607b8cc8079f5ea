package forcefield

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testshape"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// unweld stores every triangle with its own three vertices, as real-time
// formats do along normal and texture seams (Fox.glb throughout).
func unweld(t *testing.T, m *mesh.Mesh) *mesh.Mesh {
	t.Helper()
	var verts []linalg.Vec3
	var faces [][]int
	for _, f := range m.Tris {
		n := len(verts)
		verts = append(verts, m.Verts[f[0]], m.Verts[f[1]], m.Verts[f[2]])
		faces = append(faces, []int{n, n + 1, n + 2})
	}
	out, err := mesh.New(verts, faces)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestParts: parts are found on welded positions, so a closed box stored
// one triangle per three vertices is one closed part, and two boxes two.
func TestParts(t *testing.T) {
	one := unweld(t, testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return testshape.Box(linalg.Vec3{0, 0, 0}, linalg.Vec3{1, 1, 1}) }))
	part, open := parts(one)
	if open != 0 {
		t.Errorf("split box: %d open edges, want 0", open)
	}
	for tri, p := range part {
		if p != part[0] {
			t.Fatalf("split box: triangle %d in part %d, triangle 0 in %d", tri, p, part[0])
		}
	}
	two := unweld(t, testshape.Join(t,
		func() ([]linalg.Vec3, [][]int) { return testshape.Box(linalg.Vec3{0, 0, 0}, linalg.Vec3{1, 1, 1}) },
		func() ([]linalg.Vec3, [][]int) { return testshape.Box(linalg.Vec3{2, 0, 0}, linalg.Vec3{3, 1, 1}) },
	))
	part, _ = parts(two)
	if part[0] == part[len(part)-1] || part[0] != part[11] || part[12] != part[23] {
		t.Errorf("two split boxes: parts %v", part)
	}
}

// TestUnweldedSameSkeleton: splitting every vertex changes nothing; it
// used to make each triangle a shell of its own and fill whole columns
// of voxels (RiggedSimple's joints ran along its wall).
func TestUnweldedSameSkeleton(t *testing.T) {
	m := tShape(t)
	a := skeleton(t, m, Options{})
	var notes []string
	b := skeleton(t, unweld(t, m), Options{Notes: func(n string) { notes = append(notes, n) }})
	if !reflect.DeepEqual(a, b) {
		t.Errorf("welded and split meshes differ:\n%+v\n%+v", a, b)
	}
	if len(notes) > 0 && strings.HasPrefix(notes[0], "forcefield:") {
		t.Errorf("split closed mesh: notes %q", notes)
	}
}

// fin is a tube along x with a thin plate standing on its middle, like
// an ear or a dorsal fin: 1 wide, 1.2 above the tube, 0.2 thick.
func fin(t *testing.T) *mesh.Mesh {
	return testshape.Join(t,
		func() ([]linalg.Vec3, [][]int) { return tube(linalg.Vec3{0, 0, 0}, linalg.Vec3{4, 0, 0}, 0.4, 24, 24) },
		func() ([]linalg.Vec3, [][]int) {
			return testshape.Box(linalg.Vec3{1.5, 0.2, -0.1}, linalg.Vec3{2.5, 1.6, 0.1})
		},
	)
}

// TestPlate: a plate hanging from a part has no joints of its own (the
// curves thinning leaves in it are dropped), and a plate on its own has
// one (the paper's disk).
func TestPlate(t *testing.T) {
	s := skeleton(t, fin(t), Options{})
	for j, p := range s.Joints {
		if p[1] > 0.55 {
			t.Errorf("joint %d at %.3f is in the fin", j, p)
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range s.Joints {
		lo, hi = math.Min(lo, p[0]), math.Max(hi, p[0])
	}
	if lo > 0.4 || hi < 3.6 {
		t.Errorf("the tube's chain spans x %.2f..%.2f, want both ends", lo, hi)
	}

	plate := testshape.Join(t, func() ([]linalg.Vec3, [][]int) { return testshape.Box(linalg.Vec3{0, 0, 0}, linalg.Vec3{2, 2, 0.2}) })
	s = skeleton(t, plate, Options{})
	if len(s.Joints) != 1 {
		t.Errorf("a plate on its own: %d joints %v, want 1", len(s.Joints), s.Joints)
	}
}

// star is a cube body with three thin tubes leaving its centre along +x,
// −x and +y.
func star(t *testing.T) *mesh.Mesh {
	arm := func(d linalg.Vec3) func() ([]linalg.Vec3, [][]int) {
		return func() ([]linalg.Vec3, [][]int) { return tube(linalg.Vec3{}, d.Scale(2.5), 0.15, 16, 30) }
	}
	return testshape.Join(t,
		func() ([]linalg.Vec3, [][]int) {
			return testshape.Box(linalg.Vec3{-0.6, -0.6, -0.6}, linalg.Vec3{0.6, 0.6, 0.6})
		},
		arm(linalg.Vec3{1, 0, 0}), arm(linalg.Vec3{-1, 0, 0}), arm(linalg.Vec3{0, 1, 0}),
	)
}

// TestExits: each thin part gets a joint where it leaves the body (a hip,
// a shoulder) and one at its end, near the tip.
func TestExits(t *testing.T) {
	s := skeleton(t, star(t), Options{})
	for _, d := range []linalg.Vec3{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}} {
		exit, tip := false, false
		for _, p := range s.Joints {
			along := p.Dot(d)
			if off := p.Sub(d.Scale(along)).Norm(); off > 0.15 {
				continue
			}
			exit = exit || (along > 0.4 && along < 0.95)
			tip = tip || along > 2.3
		}
		if !exit || !tip {
			t.Errorf("arm %v: joint where it leaves the body %v, at its tip %v; joints %.2f", d, exit, tip, s.Joints)
		}
	}
}

// TestBend: a bone whose curve turns a corner is split at the corner; a
// straight one is not.
func TestBend(t *testing.T) {
	const h = 0.01
	var path polyline
	for x := 0.01; x < 1; x += h {
		path.pts = append(path.pts, linalg.Vec3{x, 0, 0})
		path.rad = append(path.rad, 0.05)
	}
	for y := 0.0; y < 1; y += h {
		path.pts = append(path.pts, linalg.Vec3{1, y, 0})
		path.rad = append(path.rad, 0.05)
	}
	gr := &graph{step: h}
	a, b := gr.add(linalg.Vec3{0, 0, 0}, 0.05), gr.add(linalg.Vec3{1, 1, 0}, 0.05)
	gr.edges, gr.paths = [][2]int{{a, b}}, []polyline{path}
	gr.bend(h)
	if len(gr.joints) != 3 || len(gr.edges) != 2 {
		t.Fatalf("L: %d joints, %d bones, want 3 and 2", len(gr.joints), len(gr.edges))
	}
	if d := gr.joints[2].Dist(linalg.Vec3{1, 0, 0}); d > 2*h {
		t.Errorf("L: joint at %.3f, %.3f from the corner", gr.joints[2], d)
	}

	straight := &graph{step: h}
	a, b = straight.add(linalg.Vec3{0, 0, 0}, 0.05), straight.add(linalg.Vec3{2, 0, 0}, 0.05)
	straight.edges, straight.paths = [][2]int{{a, b}}, []polyline{{}}
	straight.bend(h)
	if len(straight.joints) != 2 {
		t.Errorf("straight bone split into %d joints", len(straight.joints))
	}
}
