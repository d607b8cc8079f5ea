package forcefield

import (
	"context"
	"math"

	"github.com/meshrig/meshrig/bvh"
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/method"
)

// field is the repulsive force field on the interior voxels.
type field struct {
	g *grid
	// b answers the ray queries of the refinements after the field.
	b *bvh.Tree
	// vox are the interior voxels' grid indices, ascending; at maps a
	// grid index back to its position in vox, or -1 outside.
	vox []int32
	at  []int32
	// force is |F| per interior voxel and dist the shortest ray hit
	// (an estimate of the distance to the surface), unit-cube units.
	force, dist []float64
}

// fibonacci returns k unit directions (k rounded up to even) spread
// evenly over the sphere: a golden-angle spiral over the upper
// hemisphere, one point per band of equal area (the paper's "mathematical
// approximation method" for even ray directions, §3.2), and the opposite
// of each. The pairs make the sum cancel exactly wherever the shape is
// symmetric through the point, so the middle of a tube has no force
// from the sampling itself. The half-step phase keeps components off
// exact zeros.
func fibonacci(k int) []linalg.Vec3 {
	half := (k + 1) / 2
	golden := math.Pi * (3 - math.Sqrt(5))
	out := make([]linalg.Vec3, 2*half)
	for i := 0; i < half; i++ {
		z := 1 - (float64(i)+0.5)/float64(half)
		r := math.Sqrt(max(0, 1-z*z))
		phi := golden * (float64(i) + 0.5)
		out[2*i] = linalg.Vec3{r * math.Cos(phi), r * math.Sin(phi), z}
		out[2*i+1] = out[2*i].Scale(-1)
	}
	return out
}

// newField lists the interior voxels and computes the force at each
// (§3.2): F_p = Σ_i f(|r_i − p|)·(−s_i) with f(x) = x⁻², r_i the first
// surface point along ray direction s_i. The paper writes +s_i; only |F|
// is used, and −s_i is the repulsion's direction. Rays that leave
// through a hole of an open mesh contribute nothing. Voxels are
// independent, so the loop runs on every core with a result that does
// not depend on scheduling.
func newField(ctx context.Context, g *grid, inside []bool, b *bvh.Tree, rays int, prog method.Progress) (*field, error) {
	f := &field{g: g, b: b, at: make([]int32, g.len())}
	for id, in := range inside {
		f.at[id] = -1
		if in {
			f.at[id] = int32(len(f.vox))
			f.vox = append(f.vox, int32(id))
		}
	}
	n := len(f.vox)
	f.force = make([]float64, n)
	f.dist = make([]float64, n)
	dirs := fibonacci(rays)
	step := batchVoxels(rays)
	for lo := 0; lo < n; lo += step {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		prog.Report("force field", lo, n)
		hi := min(lo+step, n)
		par.For(hi-lo, 32, func(a, b2 int) {
			forceChunk(b, g, f, lo+a, lo+b2, dirs)
		})
	}
	prog.Report("force field", n, n)
	return f, nil
}

// raysPerBatch bounds the rays traced between two cancellation checks
// (and progress reports): about half a second on two cores. A fixed
// share of the voxels made one batch of a fine grid take seconds.
const raysPerBatch = 1 << 19

// batchVoxels returns the interior voxels per batch at rays per voxel.
func batchVoxels(rays int) int { return max(1, raysPerBatch/rays) }

// forceChunk fills force and dist for interior voxels [lo, hi). Each
// direction is traced from every voxel of the chunk before the next:
// neighbouring voxels' parallel rays walk the same part of the tree, so
// it stays in cache (twice as fast as all directions per voxel).
func forceChunk(b *bvh.Tree, g *grid, f *field, lo, hi int, dirs []linalg.Vec3) {
	const batch = 32
	var F [batch]linalg.Vec3
	var near [batch]float64
	for i := lo; i < hi; i += batch {
		n := min(batch, hi-i)
		for k := 0; k < n; k++ {
			F[k], near[k] = linalg.Vec3{}, math.Inf(1)
		}
		for _, s := range dirs {
			for k := 0; k < n; k++ {
				r := bvh.NewRay(g.center(int(f.vox[i+k])), s)
				t := b.Closest(&r)
				if math.IsInf(t, 1) {
					continue
				}
				near[k] = min(near[k], t)
				x := max(t, 1e-9)
				F[k] = F[k].Sub(s.Scale(1 / (x * x)))
			}
		}
		for k := 0; k < n; k++ {
			f.force[i+k], f.dist[i+k] = F[k].Norm(), near[k]
			if math.IsInf(near[k], 1) {
				f.dist[i+k] = g.h // every ray escaped: an open mesh
			}
		}
	}
}
