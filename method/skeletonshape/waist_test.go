package skeletonshape

import (
	"context"
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
)

// lathe returns the closed surface of revolution about the y axis whose
// radius at height y, from 0 to top, is r(y) (r(0) and r(top) are taken
// as 0: poles).
func lathe(top float64, r func(y float64) float64) *mesh.Mesh {
	const rings, sides = 120, 32
	m := &mesh.Mesh{Verts: []linalg.Vec3{{0, 0, 0}}}
	for i := 1; i < rings; i++ {
		y := top * float64(i) / rings
		for k := 0; k < sides; k++ {
			a := 2 * math.Pi * float64(k) / sides
			m.Verts = append(m.Verts, linalg.Vec3{r(y) * math.Cos(a), y, -r(y) * math.Sin(a)})
		}
	}
	m.Verts = append(m.Verts, linalg.Vec3{0, top, 0})
	last := len(m.Verts) - 1
	at := func(i, k int) int { return 1 + (i-1)*sides + (k+sides)%sides }
	for k := 0; k < sides; k++ {
		m.Tris = append(m.Tris, [3]int{0, at(1, k), at(1, k+1)})
		for i := 1; i+1 < rings; i++ {
			m.Tris = append(m.Tris, [3]int{at(i, k), at(i+1, k), at(i+1, k+1)}, [3]int{at(i, k), at(i+1, k+1), at(i, k+1)})
		}
		m.Tris = append(m.Tris, [3]int{last, at(rings-1, k+1), at(rings-1, k)})
	}
	return m
}

// ball is the radius at height y of a ball of radius r centred at height c.
func ball(y, c, r float64) float64 { return r * math.Sqrt(max(0, 1-(y-c)*(y-c)/(r*r))) }

// TestWaists: a head on a neck above a body, skeletonized by hand as one
// bone from the body's centre to the head's (where the force field's
// minima lie): Shape adds a joint on the neck, where the head turns, and
// the skeleton stays on the mirror planes; a limb that only swells (a
// muscle's belly), one that tapers, and one with a shallow narrowing
// between two ends less than twice its thickness (a wrist between a
// forearm and a fist as thick) get none. Before Waists the neck had no
// joint.
func TestWaists(t *testing.T) {
	for _, c := range []struct {
		name  string
		top   float64
		r     func(y float64) float64
		a, b  float64 // the bone's ends' heights
		waist bool
	}{
		{"head on a neck", 6, func(y float64) float64 {
			neck := 0.0
			if y > 2.5 && y < 4.5 {
				neck = 0.4
			}
			return max(ball(y, 1.5, 1.5), neck, ball(y, 5, 1))
		}, 1.5, 5, true},
		{"swelling", 6, func(y float64) float64 { return 0.5 + 0.2*math.Sin(math.Pi*y/6) }, 1, 5, false},
		{"taper", 6, func(y float64) float64 { return 1 - 0.1*y }, 1, 5, false},
		{"shallow", 6, func(y float64) float64 { return 0.7 + 0.3*math.Abs(y-3)/3 }, 1, 5, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := lathe(c.top, c.r)
			s := &static.Skeleton{Joints: []linalg.Vec3{{0, c.a, 0}, {0, c.b, 0}}, Edges: [][2]int{{0, 1}}}
			out, err := Shape(context.Background(), m, s, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !c.waist {
				if len(out.Joints) != 2 {
					t.Errorf("%d joints %v, want the 2 given", len(out.Joints), out.Joints)
				}
				return
			}
			if len(out.Joints) != 3 {
				t.Fatalf("%d joints %v, want 3: one on the neck", len(out.Joints), out.Joints)
			}
			p := out.Joints[2]
			if p[1] < 3 || p[1] > 4.1 || math.Hypot(p[0], p[2]) > 0.01 {
				t.Errorf("waist joint at %v, want on the axis (within 0.01) between heights 3 and 4.1 (the neck)", p)
			}
			if err := out.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestHeadEnds: the head on its neck of TestWaists, its skeleton given
// as the force field finds such a part — one bone from the body's centre
// to the head's, and from there a bone that turns back towards the body
// (a trunk leaving the head forwards and down) or one on to the crown.
// Shape adds the joint at the neck (Waists); where the head's other bone
// turns back, a tip at the crown, on the neck's axis a resolution short
// of the surface (crowns: without it nothing marks the head's far end);
// and the head's centre, which ends the body (every other bone leads to
// a tip), is merged into the neck's joint, from which the head's bones
// then start (ends: without it a joint stays at the head's centre, in
// the middle of a part that turns at the neck).
func TestHeadEnds(t *testing.T) {
	m := lathe(6, func(y float64) float64 {
		neck := 0.0
		if y > 2.5 && y < 4.5 {
			neck = 0.4
		}
		return max(ball(y, 1.5, 1.5), neck, ball(y, 5, 1))
	})
	const res = 0.05
	for _, c := range []struct {
		name  string
		end   linalg.Vec3 // the head centre's other joint
		crown bool
	}{
		{"trunk", linalg.Vec3{0.5, 4.6, 0}, true},
		{"crown", linalg.Vec3{0, 5.9, 0}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &static.Skeleton{Joints: []linalg.Vec3{{0, 1.5, 0}, {0, 5, 0}, c.end}, Edges: [][2]int{{0, 1}, {1, 2}}}
			out, err := Shape(context.Background(), m, s, Options{NoSymmetry: true, Resolution: res})
			if err != nil {
				t.Fatal(err)
			}
			if err := out.Validate(); err != nil {
				t.Fatal(err)
			}
			want := 3 // body, neck, the head's end
			if c.crown {
				want = 4
			}
			if len(out.Joints) != want {
				t.Errorf("%d joints %v, want %d", len(out.Joints), out.Joints, want)
			}
			neck, crown := -1, -1
			for j, p := range out.Joints {
				if p.Dist(linalg.Vec3{0, 5, 0}) < 0.3 {
					t.Errorf("joint %d at %v: the head's centre kept", j, p)
				}
				if p[1] > 3 && p[1] < 4.1 && math.Hypot(p[0], p[2]) < 0.01 {
					neck = j
				}
				if p[1] > 5.5 && math.Hypot(p[0], p[2]) < 0.05 {
					crown = j
				}
			}
			if neck < 0 {
				t.Fatalf("no joint on the neck: %v", out.Joints)
			}
			if c.crown && (crown < 0 || out.Joints[crown][1] < 6-2*res || out.Joints[crown][1] > 6-res/2) {
				t.Errorf("no crown tip a resolution short of the head's top (6): %v", out.Joints)
			}
			// Every bone of the head starts at the neck's joint.
			adj := adjacency(len(out.Joints), out.Edges)
			if len(adj[neck]) != want-1 {
				t.Errorf("the neck's joint has bones to %v, want the body and the head's ends", adj[neck])
			}
		})
	}
}
