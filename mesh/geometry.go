package mesh

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// Bounds returns the componentwise minimum and maximum of pts; zeros for
// none.
func Bounds(pts []linalg.Vec3) (lo, hi linalg.Vec3) {
	if len(pts) == 0 {
		return
	}
	lo, hi = pts[0], pts[0]
	for _, p := range pts[1:] {
		lo, hi = lo.Min(p), hi.Max(p)
	}
	return lo, hi
}

// Diagonal returns the length of the bounding-box diagonal of pts: the d
// that every error in meshrig is relative to.
func Diagonal(pts []linalg.Vec3) float64 {
	lo, hi := Bounds(pts)
	return hi.Sub(lo).Norm()
}

// Centroid returns the mean of pts.
func Centroid(pts []linalg.Vec3) linalg.Vec3 {
	var c linalg.Vec3
	for _, p := range pts {
		c = c.Add(p)
	}
	if len(pts) > 0 {
		c = c.Scale(1 / float64(len(pts)))
	}
	return c
}

// FaceNormals writes into out (len(tris), allocated when nil or short) the
// unit normal of every triangle with positions pos; a zero-area triangle
// gets the zero vector.
func FaceNormals(out []linalg.Vec3, pos []linalg.Vec3, tris [][3]int) []linalg.Vec3 {
	if len(out) < len(tris) {
		out = make([]linalg.Vec3, len(tris))
	}
	out = out[:len(tris)]
	for t, f := range tris {
		out[t] = pos[f[1]].Sub(pos[f[0]]).Cross(pos[f[2]].Sub(pos[f[0]])).Unit()
	}
	return out
}

// FaceAreas returns the area of every triangle with positions pos.
func FaceAreas(pos []linalg.Vec3, tris [][3]int) []float64 {
	a := make([]float64, len(tris))
	for t, f := range tris {
		a[t] = 0.5 * pos[f[1]].Sub(pos[f[0]]).Cross(pos[f[2]].Sub(pos[f[0]])).Norm()
	}
	return a
}

// VertexNormals returns area-weighted unit vertex normals; a vertex in no
// face, or whose faces cancel, gets (0, 0, 1) so writers always have a
// valid unit normal.
func VertexNormals(pos []linalg.Vec3, tris [][3]int) []linalg.Vec3 {
	n := make([]linalg.Vec3, len(pos))
	for _, f := range tris {
		c := pos[f[1]].Sub(pos[f[0]]).Cross(pos[f[2]].Sub(pos[f[0]]))
		for _, i := range f {
			n[i] = n[i].Add(c)
		}
	}
	for i := range n {
		if l := n[i].Norm(); l > 0 && !math.IsInf(l, 0) {
			n[i] = n[i].Scale(1 / l)
		} else {
			n[i] = linalg.Vec3{0, 0, 1}
		}
	}
	return n
}
