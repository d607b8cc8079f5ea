// Package testshape builds small closed surfaces for the single-mesh
// methods' tests: shapes as vertex and polygon lists, and Join, which puts
// several in one mesh.
package testshape

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// Shape is a part's vertices and polygons (indices into its vertices).
type Shape func() ([]linalg.Vec3, [][]int)

// Torus returns a torus around z with major radius R and minor radius r,
// n segments around z and m around the tube, in triangles.
func Torus(R, r float64, n, m int) ([]linalg.Vec3, [][]int) {
	var verts []linalg.Vec3
	var faces [][]int
	for i := 0; i < n; i++ {
		u := 2 * math.Pi * float64(i) / float64(n)
		for j := 0; j < m; j++ {
			w := 2 * math.Pi * float64(j) / float64(m)
			d := R + r*math.Cos(w)
			verts = append(verts, linalg.Vec3{d * math.Cos(u), d * math.Sin(u), r * math.Sin(w)})
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			p, q := i*m+j, ((i+1)%n)*m+j
			p1, q1 := i*m+(j+1)%m, ((i+1)%n)*m+(j+1)%m
			faces = append(faces, []int{p, q, q1}, []int{p, q1, p1})
		}
	}
	return verts, faces
}

// Join puts the parts in one mesh, in order, failing tb when the result
// is not a valid mesh.
func Join(tb testing.TB, parts ...Shape) *mesh.Mesh {
	tb.Helper()
	var verts []linalg.Vec3
	var faces [][]int
	for _, p := range parts {
		v, f := p()
		for _, face := range f {
			g := make([]int, len(face))
			for k, i := range face {
				g[k] = i + len(verts)
			}
			faces = append(faces, g)
		}
		verts = append(verts, v...)
	}
	m, err := mesh.New(verts, faces)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// Box is an axis-aligned box as 12 triangles.
func Box(lo, hi linalg.Vec3) ([]linalg.Vec3, [][]int) {
	var verts []linalg.Vec3
	for k := 0; k < 8; k++ {
		verts = append(verts, linalg.Vec3{
			[]float64{lo[0], hi[0]}[k&1], []float64{lo[1], hi[1]}[k>>1&1], []float64{lo[2], hi[2]}[k>>2&1]})
	}
	quads := [][]int{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}
	var faces [][]int
	for _, q := range quads {
		faces = append(faces, []int{q[0], q[1], q[2]}, []int{q[0], q[2], q[3]})
	}
	return verts, faces
}
