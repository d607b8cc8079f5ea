package skeletonshape

import (
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// surfaceSamples returns about n points spread over m's surface by area:
// systematic sampling along the faces' cumulative area (deterministic),
// each point at a low-discrepancy barycentric position in its face, so
// that the gap between samples depends on the surface, not on how it is
// tessellated.
func surfaceSamples(m *mesh.Mesh, n int) []linalg.Vec3 {
	areas := mesh.FaceAreas(m.Verts, m.Tris)
	total := 0.0
	for _, a := range areas {
		total += a
	}
	if !(total > 0) {
		return append([]linalg.Vec3(nil), m.Verts...)
	}
	step := total / float64(n)
	out := make([]linalg.Vec3, 0, n+len(m.Tris)/8)
	next, acc := step/2, 0.0
	k := 0
	for t, a := range areas {
		acc += a
		for next < acc {
			// Golden-ratio (R2) sequence folded into the triangle.
			u := frac(0.5 + float64(k)*0.7548776662466927)
			v := frac(0.5 + float64(k)*0.5698402909980532)
			if u+v > 1 {
				u, v = 1-u, 1-v
			}
			tr := m.Tris[t]
			p0, p1, p2 := m.Verts[tr[0]], m.Verts[tr[1]], m.Verts[tr[2]]
			out = append(out, p0.Add(p1.Sub(p0).Scale(u)).Add(p2.Sub(p0).Scale(v)))
			next += step
			k++
		}
	}
	return out
}

func frac(x float64) float64 { return x - float64(int(x)) }
