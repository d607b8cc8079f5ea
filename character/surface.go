package character

import (
	"fmt"
	"math"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
)

// surface polygonizes the body (and its shells) into one mesh.
func (b *body) surface(opt Options) (*mesh.Mesh, error) {
	segs := b.segments()
	minR := math.Inf(1)
	lo, hi := linalg.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, linalg.Vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, s := range segs {
		for _, e := range [][2]any{{s.a, s.ra}, {s.b, s.rb}} {
			p, r := e[0].(linalg.Vec3), e[1].(float64)
			lo = lo.Min(p.Sub(linalg.Vec3{r, r, r}))
			hi = hi.Max(p.Add(linalg.Vec3{r, r, r}))
			minR = math.Min(minR, r)
		}
	}
	// Smooth union of the capsules' distance fields (k sets the fillet).
	k := 0.3 * minR
	field := func(p linalg.Vec3) float64 {
		var sum float64
		for _, s := range segs {
			d, r := s.closest(p)
			sum += math.Exp(-(d - r) / k)
		}
		return -k * math.Log(sum)
	}
	// Cell size for about opt.Vertices vertices: marching tetrahedra puts
	// roughly one vertex per h²/4 of surface. Never coarser than the
	// thinnest bone, or it could break apart.
	var area float64
	for _, s := range segs {
		r := (s.ra + s.rb) / 2
		area += 2 * math.Pi * r * s.a.Dist(s.b)
	}
	h := math.Sqrt(4 * area / float64(opt.Vertices))
	h = math.Min(h, 1.5*minR)
	verts, tris, err := polygonize(field, lo, hi, h)
	if err != nil {
		return nil, err
	}
	if opt.Shells && len(b.shells) > 0 {
		b.shellStart = len(verts)
		for _, sh := range b.shells {
			sh := sh
			r := linalg.Vec3{sh.radius, sh.radius, sh.radius}
			sv, st, err := polygonize(func(p linalg.Vec3) float64 { return p.Dist(sh.center) - sh.radius },
				sh.center.Sub(r), sh.center.Add(r), math.Min(h, sh.radius/3))
			if err != nil {
				return nil, err
			}
			off := len(verts)
			verts = append(verts, sv...)
			for _, t := range st {
				tris = append(tris, []int{t[0] + off, t[1] + off, t[2] + off})
			}
		}
	}
	return mesh.New(verts, tris)
}

// polygonize extracts the surface field = 0 (inside negative) inside the
// box [lo, hi] padded by a cell, on a grid of spacing h, by marching
// tetrahedra over the Freudenthal split of each cube (consistent across
// neighbours, so the surface is closed and manifold). Vertices on the same
// grid edge are shared; triangles face outward.
func polygonize(field func(linalg.Vec3) float64, lo, hi linalg.Vec3, h float64) ([]linalg.Vec3, [][]int, error) {
	lo = lo.Sub(linalg.Vec3{2 * h, 2 * h, 2 * h})
	hi = hi.Add(linalg.Vec3{2 * h, 2 * h, 2 * h})
	var n [3]int
	for a := 0; a < 3; a++ {
		n[a] = int(math.Ceil((hi[a]-lo[a])/h)) + 1
	}
	if n[0]*n[1]*n[2] > 1<<24 {
		return nil, nil, fmt.Errorf("grid of %v points is too fine", n)
	}
	idx := func(x, y, z int) int { return (z*n[1]+y)*n[0] + x }
	pt := func(i int) linalg.Vec3 {
		x, y, z := i%n[0], (i/n[0])%n[1], i/(n[0]*n[1])
		return lo.Add(linalg.Vec3{float64(x) * h, float64(y) * h, float64(z) * h})
	}
	val := make([]float64, n[0]*n[1]*n[2])
	par.For(n[2], 1, func(z0, z1 int) {
		for z := z0; z < z1; z++ {
			for y := 0; y < n[1]; y++ {
				for x := 0; x < n[0]; x++ {
					v := field(pt(idx(x, y, z)))
					if v == 0 {
						v = 1e-12 // keep the surface off the grid points
					}
					val[idx(x, y, z)] = v
				}
			}
		}
	})
	var verts []linalg.Vec3
	var tris [][]int
	edge := map[uint64]int{}
	np := uint64(len(val))
	vertex := func(a, b int) int {
		if a > b {
			a, b = b, a
		}
		key := uint64(a)*np + uint64(b)
		if v, ok := edge[key]; ok {
			return v
		}
		t := val[a] / (val[a] - val[b])
		t = math.Max(1e-3, math.Min(1-1e-3, t))
		verts = append(verts, pt(a).Lerp(pt(b), t))
		edge[key] = len(verts) - 1
		return len(verts) - 1
	}
	emit := func(a, b, c int, in, out linalg.Vec3) {
		pa, pb, pc := verts[a], verts[b], verts[c]
		if pb.Sub(pa).Cross(pc.Sub(pa)).Dot(out.Sub(in)) < 0 {
			b, c = c, b
		}
		tris = append(tris, []int{a, b, c})
	}
	// Freudenthal: six tetrahedra along the cube diagonal 0→7, corner bits
	// x=1, y=2, z=4.
	axes := [3]int{1, 2, 4}
	var tets [6][4]int
	k := 0
	for _, a := range axes {
		for _, b := range axes {
			if a != b {
				tets[k] = [4]int{0, a, a | b, 7}
				k++
			}
		}
	}
	var corner [8]int
	for z := 0; z+1 < n[2]; z++ {
		for y := 0; y+1 < n[1]; y++ {
			for x := 0; x+1 < n[0]; x++ {
				for c := 0; c < 8; c++ {
					corner[c] = idx(x+c&1, y+(c>>1)&1, z+(c>>2)&1)
				}
				for _, tet := range tets {
					var ins, outs []int
					for _, c := range tet {
						if g := corner[c]; val[g] < 0 {
							ins = append(ins, g)
						} else {
							outs = append(outs, g)
						}
					}
					cin, cout := centroid(ins, pt), centroid(outs, pt)
					switch len(ins) {
					case 1:
						emit(vertex(ins[0], outs[0]), vertex(ins[0], outs[1]), vertex(ins[0], outs[2]), cin, cout)
					case 3:
						emit(vertex(outs[0], ins[0]), vertex(outs[0], ins[1]), vertex(outs[0], ins[2]), cin, cout)
					case 2:
						a, b := vertex(ins[0], outs[0]), vertex(ins[0], outs[1])
						c, d := vertex(ins[1], outs[1]), vertex(ins[1], outs[0])
						emit(a, b, c, cin, cout)
						emit(a, c, d, cin, cout)
					}
				}
			}
		}
	}
	return verts, tris, nil
}

func centroid(ids []int, pt func(int) linalg.Vec3) linalg.Vec3 {
	var c linalg.Vec3
	for _, i := range ids {
		c = c.Add(pt(i))
	}
	if len(ids) > 0 {
		c = c.Scale(1 / float64(len(ids)))
	}
	return c
}
