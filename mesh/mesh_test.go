package mesh

import (
	"errors"
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// cube returns a unit cube of six quads.
func cube() *Mesh {
	v := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}
	q := [][]int{{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}}
	m, err := New(v, q)
	if err != nil {
		panic(err)
	}
	return m
}

func TestCubeTopology(t *testing.T) {
	m := cube()
	if len(m.Tris) != 12 || m.NumPolys() != 6 {
		t.Fatalf("tris %d polys %d, want 12 and 6", len(m.Tris), m.NumPolys())
	}
	top := NewTopology(m)
	// 12 cube edges plus one diagonal per quad.
	if len(top.Edges) != 18 {
		t.Errorf("edges = %d, want 18", len(top.Edges))
	}
	if top.NumComponents != 1 {
		t.Errorf("components = %d, want 1", top.NumComponents)
	}
	for tri, adj := range top.FaceAdj {
		for k, o := range adj {
			if o < 0 {
				t.Fatalf("closed cube has a boundary at triangle %d edge %d", tri, k)
			}
		}
	}
	// Euler: V - E + F = 2 for a closed genus-0 surface.
	if chi := len(m.Verts) - len(top.Edges) + len(m.Tris); chi != 2 {
		t.Errorf("Euler characteristic %d, want 2", chi)
	}
	var area float64
	for _, a := range FaceAreas(m.Verts, m.Tris) {
		area += a
	}
	if math.Abs(area-6) > 1e-12 {
		t.Errorf("area %v, want 6", area)
	}
	// Outward normals: the bottom quad faces -z.
	n := FaceNormals(nil, m.Verts, m.Tris)
	if n[0] != (linalg.Vec3{0, 0, -1}) {
		t.Errorf("bottom normal %v, want (0,0,-1)", n[0])
	}
	if d := Diagonal(m.Verts); math.Abs(d-math.Sqrt(3)) > 1e-12 {
		t.Errorf("diagonal %v", d)
	}
}

func TestTwoComponents(t *testing.T) {
	v := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 0, 0}, {6, 0, 0}, {5, 1, 0}, {9, 9, 9}}
	m, err := New(v, [][]int{{0, 1, 2}, {3, 4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	top := NewTopology(m)
	// Two triangles plus one isolated vertex.
	if top.NumComponents != 3 {
		t.Fatalf("components = %d, want 3", top.NumComponents)
	}
	if top.Component[0] != top.Component[2] || top.Component[0] == top.Component[3] {
		t.Errorf("bad labels %v", top.Component)
	}
	if got := top.Neighbors(0); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("one-ring of 0 = %v", got)
	}
}

func TestValidateErrors(t *testing.T) {
	v := []linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}
	if _, err := New(v, [][]int{{0, 1, 3}}); err == nil {
		t.Error("out-of-range index accepted")
	}
	if _, err := New(v, [][]int{{0, 1, 1}}); !errors.Is(err, ErrDegenerate) {
		t.Errorf("repeated vertex: %v, want ErrDegenerate", err)
	}
	if _, err := New(v, [][]int{{0, 1}}); err == nil {
		t.Error("two-vertex face accepted")
	}
	bad := []linalg.Vec3{{0, 0, 0}, {1, math.NaN(), 0}, {0, 1, 0}}
	if _, err := New(bad, [][]int{{0, 1, 2}}); err == nil {
		t.Error("NaN accepted")
	}
}
