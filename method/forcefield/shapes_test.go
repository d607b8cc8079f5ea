package forcefield

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// Closed test shapes, counter-clockwise seen from outside.

// tube is a closed cylinder of radius r from a to b, capped by fans.
func tube(a, b linalg.Vec3, r float64, around, rings int) ([]linalg.Vec3, [][]int) {
	axis := b.Sub(a).Unit()
	u := linalg.Vec3{1, 0, 0}
	if math.Abs(axis[0]) > 0.9 {
		u = linalg.Vec3{0, 1, 0}
	}
	u = u.Sub(axis.Scale(u.Dot(axis))).Unit()
	v := axis.Cross(u)
	var verts []linalg.Vec3
	var faces [][]int
	for k := 0; k <= rings; k++ {
		c := a.Lerp(b, float64(k)/float64(rings))
		for i := 0; i < around; i++ {
			th := 2 * math.Pi * float64(i) / float64(around)
			verts = append(verts, c.Add(u.Scale(r*math.Cos(th))).Add(v.Scale(r*math.Sin(th))))
		}
	}
	for k := 0; k < rings; k++ {
		for i := 0; i < around; i++ {
			p, q := k*around+i, k*around+(i+1)%around
			faces = append(faces, []int{p, q, q + around}, []int{p, q + around, p + around})
		}
	}
	ca, cb := len(verts), len(verts)+1
	verts = append(verts, a, b)
	top := rings * around
	for i := 0; i < around; i++ {
		faces = append(faces, []int{ca, (i + 1) % around, i}, []int{cb, top + i, top + (i+1)%around})
	}
	return verts, faces
}
