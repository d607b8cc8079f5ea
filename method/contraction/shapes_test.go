package contraction

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// Closed test shapes, counter-clockwise seen from outside.

// capsule is a cylinder of radius r along x from −h to h with
// hemispherical caps: rings of `around` vertices, `caps` rings per cap.
func capsule(h, r float64, around, rings, caps int) ([]linalg.Vec3, [][]int) {
	var verts []linalg.Vec3
	var xs, rs []float64
	for k := caps; k >= 1; k-- { // left cap, from near the pole
		th := math.Pi / 2 * float64(k) / float64(caps)
		xs = append(xs, -h-r*math.Sin(th))
		rs = append(rs, r*math.Cos(th))
	}
	for k := 0; k <= rings; k++ {
		xs = append(xs, -h+2*h*float64(k)/float64(rings))
		rs = append(rs, r)
	}
	for k := 1; k <= caps; k++ {
		th := math.Pi / 2 * float64(k) / float64(caps)
		xs = append(xs, h+r*math.Sin(th))
		rs = append(rs, r*math.Cos(th))
	}
	// The cap loops above end at the poles with radius 0: replace those
	// rings by single pole vertices.
	xs, rs = xs[1:len(xs)-1], rs[1:len(rs)-1]
	for k := range xs {
		for i := 0; i < around; i++ {
			th := 2 * math.Pi * float64(i) / float64(around)
			verts = append(verts, linalg.Vec3{xs[k], rs[k] * math.Cos(th), rs[k] * math.Sin(th)})
		}
	}
	var faces [][]int
	for k := 0; k+1 < len(xs); k++ {
		for i := 0; i < around; i++ {
			p, q := k*around+i, k*around+(i+1)%around
			faces = append(faces, []int{p, q + around, q}, []int{p, p + around, q + around})
		}
	}
	west, east := len(verts), len(verts)+1
	verts = append(verts, linalg.Vec3{-h - r}, linalg.Vec3{h + r})
	last := (len(xs) - 1) * around
	for i := 0; i < around; i++ {
		faces = append(faces, []int{west, i, (i + 1) % around}, []int{east, last + (i+1)%around, last + i})
	}
	for _, f := range faces { // the loops above run clockwise from outside
		f[1], f[2] = f[2], f[1]
	}
	return verts, faces
}

// polycube is the closed surface of a set of unit cells (integer
// coordinates), every cell face split into sub×sub quads on a shared
// lattice so the surface is one closed manifold (cells must not touch
// along an edge or corner only).
func polycube(cells [][3]int, sub int) ([]linalg.Vec3, [][]int) {
	in := make(map[[3]int]bool, len(cells))
	for _, c := range cells {
		in[c] = true
	}
	index := map[[3]int]int{}
	var verts []linalg.Vec3
	at := func(p [3]int) int {
		if i, ok := index[p]; ok {
			return i
		}
		index[p] = len(verts)
		verts = append(verts, linalg.Vec3{float64(p[0]) / float64(sub), float64(p[1]) / float64(sub), float64(p[2]) / float64(sub)})
		return index[p]
	}
	var faces [][]int
	for _, c := range cells {
		for ax := 0; ax < 3; ax++ {
			for _, dir := range []int{-1, 1} {
				nb := c
				nb[ax] += dir
				if in[nb] {
					continue
				}
				u, v := (ax+1)%3, (ax+2)%3
				for a := 0; a < sub; a++ {
					for b := 0; b < sub; b++ {
						corner := func(da, db int) int {
							var p [3]int
							p[ax] = c[ax] * sub
							if dir > 0 {
								p[ax] += sub
							}
							p[u] = c[u]*sub + a + da
							p[v] = c[v]*sub + b + db
							return at(p)
						}
						q := []int{corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)}
						if dir < 0 {
							q[1], q[3] = q[3], q[1]
						}
						faces = append(faces, q)
					}
				}
			}
		}
	}
	return verts, faces
}

// shift moves a shape by d.
func shift(d linalg.Vec3, verts []linalg.Vec3, faces [][]int) ([]linalg.Vec3, [][]int) {
	out := make([]linalg.Vec3, len(verts))
	for i, p := range verts {
		out[i] = p.Add(d)
	}
	return out, faces
}

// tShape is a T of unit cells: a stem of `stem` cells along −y below a
// bar of 2·arm+1 cells along x.
func tShape(arm, stem int) [][3]int {
	var cells [][3]int
	for x := -arm; x <= arm; x++ {
		cells = append(cells, [3]int{x, 0, 0})
	}
	for y := 1; y <= stem; y++ {
		cells = append(cells, [3]int{0, -y, 0})
	}
	return cells
}

// lShape is an L: `down` cells along −y, then `along` cells along +x.
func lShape(down, along int) [][3]int {
	var cells [][3]int
	for y := 0; y < down; y++ {
		cells = append(cells, [3]int{0, -y, 0})
	}
	for x := 1; x <= along; x++ {
		cells = append(cells, [3]int{x, -(down - 1), 0})
	}
	return cells
}
