package mesh

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

// TestFirstRepeat: the position of the first entry seen before, for
// polygons checked pair by pair and for long ones checked by sorting.
func TestFirstRepeat(t *testing.T) {
	long := func(n int, set map[int]int) []int {
		p := make([]int, n)
		for i := range p {
			p[i] = 3 * i
		}
		for at, v := range set {
			p[at] = v
		}
		return p
	}
	for _, c := range []struct {
		name string
		p    []int
		want int
	}{
		{"empty", nil, -1},
		{"triangle", []int{4, 5, 6}, -1},
		{"triangle repeat", []int{4, 5, 4}, 2},
		{"two repeats", []int{1, 2, 3, 2, 1}, 3},
		{"long, none", long(1000, nil), -1},
		{"long, one", long(1000, map[int]int{700: 3 * 20}), 700},
		// 3·600 first appears at 600; the copy at 500 comes before it, so
		// the copy of 3·100 at 900 is the first repeat.
		{"long, earliest wins", long(1000, map[int]int{500: 3 * 600, 900: 3 * 100}), 600},
		{"long, negative", long(1000, map[int]int{10: -7, 20: -7}), 20},
	} {
		if got := FirstRepeat(c.p); got != c.want {
			t.Errorf("%s: FirstRepeat = %d, want %d", c.name, got, c.want)
		}
	}
}

// TestValidateLongFace: a face of 120,000 vertices gives the same errors
// as a short one, naming the face and the vertex, whichever comes first
// in the face: a repeat, or an index out of range.
func TestValidateLongFace(t *testing.T) {
	const n = 120000
	verts := ring(n)
	face := func(set map[int]int) []int {
		p := make([]int, n)
		for i := range p {
			p[i] = i
		}
		for at, v := range set {
			p[at] = v
		}
		return p
	}
	tri := []int{0, 1, 2}
	for _, c := range []struct {
		name string
		p    []int
		want string
	}{
		{"repeat", face(map[int]int{90000: 40000}), "face 2 uses vertex 40001 twice"},
		{"repeat before out of range", face(map[int]int{90000: 40000, 100000: n}), "face 2 uses vertex 40001 twice"},
		{"out of range before repeat", face(map[int]int{80000: -1, 90000: 40000}), "face 2: vertex index 0 out of range (mesh has 120000 vertices)"},
		{"out of range", face(map[int]int{110000: n + 5}), "face 2: vertex index 120006 out of range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(verts, [][]int{tri, c.p})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			if strings.Contains(c.want, "twice") && !errors.Is(err, ErrDegenerate) {
				t.Errorf("%v does not wrap ErrDegenerate", err)
			}
		})
	}
	if _, err := New(verts, [][]int{tri, face(nil)}); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkValidateLongFace validates a mesh of one 120,000-vertex face
// (issue 12: 7.8 s with the pairwise check, in obj.Read and again here).
func BenchmarkValidateLongFace(b *testing.B) {
	const n = 120000
	m := &Mesh{Verts: ring(n), PolyStart: []int{0, n}, PolyVerts: make([]int, n)}
	for i := range m.PolyVerts {
		m.PolyVerts[i] = i
	}
	for b.Loop() {
		if err := m.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// ring returns n points around the unit circle.
func ring(n int) []linalg.Vec3 {
	v := make([]linalg.Vec3, n)
	for i := range v {
		a := 2 * math.Pi * float64(i) / float64(n)
		v[i] = linalg.Vec3{math.Cos(a), math.Sin(a), 0}
	}
	return v
}
