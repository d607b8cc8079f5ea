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
//
// With connected, only the samples joined to i through samples inside
// the ball count (26-neighbours on the sample lattice, from the samples
// less than a stride from i): the piece of solid i lies in, not the
// other parts the ball happens to reach — a row of fingers side by side
// is a row of tubes, not a plate.
func (f *field) ballShape(i int32, rho float64, samples int, connected bool) (linalg.Vec3, bool) {
	g := f.g
	cells := int(math.Ceil(rho / g.h))
	stride := max(1, cells/samples)
	w := 2*cells/stride + 1 // samples along each axis: offsets −cells + t·stride
	x0, y0, z0 := g.coords(int(f.vox[i]))
	r2 := (rho / g.h) * (rho / g.h)
	// in reports whether the sample at lattice position (a, b, c) lies
	// in the ball and inside the mesh.
	in := func(a, b, c int) bool {
		dx, dy, dz := a*stride-cells, b*stride-cells, c*stride-cells
		x, y, z := x0+dx, y0+dy, z0+dz
		return x >= 0 && x < g.n[0] && y >= 0 && y < g.n[1] && z >= 0 && z < g.n[2] &&
			float64(dx*dx+dy*dy+dz*dz) <= r2 && f.at[g.index(x, y, z)] >= 0
	}
	var n float64
	var sum linalg.Vec3
	var sq linalg.Mat3
	add := func(a, b, c int) {
		p := linalg.Vec3{float64(a*stride - cells), float64(b*stride - cells), float64(c*stride - cells)}
		n++
		sum = sum.Add(p)
		for r := 0; r < 3; r++ {
			for s := 0; s < 3; s++ {
				sq[r][s] += p[r] * p[s]
			}
		}
	}
	if connected {
		at := func(a, b, c int) int { return a + w*(b+w*c) }
		seen := make([]bool, w*w*w)
		var stack [][3]int
		// The seeds: the samples less than a stride from i along each
		// axis (i itself when the stride is 1).
		lo, hi := cells/stride, (cells+stride-1)/stride
		for c := lo; c <= hi; c++ {
			for b := lo; b <= hi; b++ {
				for a := lo; a <= hi; a++ {
					if in(a, b, c) {
						seen[at(a, b, c)] = true
						stack = append(stack, [3]int{a, b, c})
					}
				}
			}
		}
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			add(p[0], p[1], p[2])
			for c := max(0, p[2]-1); c <= min(w-1, p[2]+1); c++ {
				for b := max(0, p[1]-1); b <= min(w-1, p[1]+1); b++ {
					for a := max(0, p[0]-1); a <= min(w-1, p[0]+1); a++ {
						if j := at(a, b, c); !seen[j] && in(a, b, c) {
							seen[j] = true
							stack = append(stack, [3]int{a, b, c})
						}
					}
				}
			}
		}
	} else {
		for c := 0; c < w; c++ {
			for b := 0; b < w; b++ {
				for a := 0; a < w; a++ {
					if in(a, b, c) {
						add(a, b, c)
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
