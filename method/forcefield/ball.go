package forcefield

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// ballShape returns the eigenvalues λ₁ ≥ λ₂ ≥ λ₃ of the covariance of
// the interior voxel centres within rho (unit-cube units) of interior
// voxel i, in voxels², and false when fewer than four lie there. Large
// balls are sampled: every max(1, cells/samples)-th voxel along each axis,
// cells the ball's radius in voxels. Both shape tests (flat, spread) read
// the solid around a voxel this way.
func (f *field) ballShape(i int32, rho float64, samples int) (linalg.Vec3, bool) {
	g := f.g
	cells := int(math.Ceil(rho / g.h))
	stride := max(1, cells/samples)
	x0, y0, z0 := g.coords(int(f.vox[i]))
	var n float64
	var sum linalg.Vec3
	var sq linalg.Mat3
	r2 := (rho / g.h) * (rho / g.h)
	for dz := -cells; dz <= cells; dz += stride {
		z := z0 + dz
		if z < 0 || z >= g.n[2] {
			continue
		}
		for dy := -cells; dy <= cells; dy += stride {
			y := y0 + dy
			if y < 0 || y >= g.n[1] {
				continue
			}
			for dx := -cells; dx <= cells; dx += stride {
				x := x0 + dx
				if x < 0 || x >= g.n[0] || float64(dx*dx+dy*dy+dz*dz) > r2 || f.at[g.index(x, y, z)] < 0 {
					continue
				}
				p := linalg.Vec3{float64(dx), float64(dy), float64(dz)}
				n++
				sum = sum.Add(p)
				for a := 0; a < 3; a++ {
					for b := 0; b < 3; b++ {
						sq[a][b] += p[a] * p[b]
					}
				}
			}
		}
	}
	if n < 4 {
		return linalg.Vec3{}, false
	}
	mean := sum.Scale(1 / n)
	var cov linalg.Mat3
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			cov[a][b] = sq[a][b]/n - mean[a]*mean[b]
		}
	}
	l, _ := linalg.SymEigen3(cov)
	return l, true
}
