package stretch

import "math"

// The Levenberg–Marquardt system of polish has a 6×6 block per pair of
// joints that move a vertex together (a joint with its ancestors and
// descendants, and across a blend), and a 3-wide row for the root
// translation that meets every joint. Eliminated leaves first, its
// Cholesky factor fills in little beyond that pattern: on the cow's
// 49-joint rig a sixth of the dense factor's work, which had become most
// of --stretch's time.

// blockPattern is the symbolic factor: the elimination order (joints,
// deepest first, then the translation as block nj) and, per block, the
// blocks eliminated after it that its column reaches.
type blockPattern struct {
	nj    int
	order []int // elimination position → block
	pos   []int // block → elimination position
	below [][]int
}

// newBlockPattern returns the factor's pattern for joints that share
// vertices as pairs says (pairs of the skin's sums) on the skeleton t.
func newBlockPattern(t *tree, pairs []skinPair) *blockPattern {
	nj := len(t.parent)
	nb := nj + 1
	pat := make([]bool, nb*nb)
	for _, pr := range pairs {
		for _, j := range t.chain[pr.k] {
			for _, l := range t.chain[pr.m] {
				pat[j*nb+l], pat[l*nb+j] = true, true
			}
		}
	}
	for j := 0; j < nb; j++ { // the translation meets every joint
		pat[j*nb+nj], pat[nj*nb+j] = true, true
	}
	order := append(append([]int(nil), t.up...), nj)
	pos := make([]int, nb)
	for p, b := range order {
		pos[b] = p
	}
	bp := &blockPattern{nj: nj, order: order, pos: pos, below: make([][]int, nb)}
	for p, k := range order {
		var nbrs []int
		for r := 0; r < nb; r++ {
			if r != k && pat[k*nb+r] && pos[r] > p {
				nbrs = append(nbrs, r)
			}
		}
		for _, a := range nbrs { // fill: the eliminated block's neighbours meet
			for _, b := range nbrs {
				pat[a*nb+b] = true
			}
		}
		bp.below[k] = nbrs
	}
	return bp
}

// blockFactor is a factor's storage: 6×6 blocks, row-major, at
// l[a*(nj+1)+b] for block a on or below block b in elimination order.
type blockFactor struct {
	bp *blockPattern
	l  [][36]float64
}

func newBlockFactor(bp *blockPattern) *blockFactor {
	nb := bp.nj + 1
	return &blockFactor{bp: bp, l: make([][36]float64, nb*nb)}
}

// offset is block b's first variable in the system (the translation's
// three, then three unused ones held at zero).
func (f *blockFactor) offset(b int) int { return 6 * b }

// factor loads the damped system — hd the lower triangle, row-major, of
// np = 6·nj+3 variables, each diagonal entry raised by lambda times
// itself and 1e-12 — and factors it. false when it is not positive
// definite.
func (f *blockFactor) factor(hd []float64, lambda float64) bool {
	bp := f.bp
	nj, nb := bp.nj, bp.nj+1
	np := 6*nj + 3
	load := func(a, b int) {
		blk := &f.l[a*nb+b]
		oa, ob := f.offset(a), f.offset(b)
		ra, rb := min(6, np-oa), min(6, np-ob) // the translation block has 3
		*blk = [36]float64{}
		for r := 0; r < ra; r++ {
			x := oa + r
			for c := 0; c < rb; c++ {
				if y := ob + c; x >= y {
					blk[r*6+c] = hd[x*np+y]
				} else {
					blk[r*6+c] = hd[y*np+x]
				}
			}
		}
		if a == b {
			for i := 0; i < 6; i++ {
				if i < ra {
					blk[i*6+i] += lambda*blk[i*6+i] + 1e-12
				} else {
					blk[i*6+i] = 1 // the translation block's unused variables
				}
			}
		}
	}
	for _, k := range bp.order {
		load(k, k)
		for _, r := range bp.below[k] {
			load(r, k)
		}
	}
	// The fill's blocks start at zero and are loaded where the system
	// has them: every pair below a column, once.
	for _, k := range bp.order {
		for _, a := range bp.below[k] {
			for _, b := range bp.below[k] {
				if bp.pos[a] > bp.pos[b] {
					load(a, b)
				}
			}
		}
	}
	for _, k := range bp.order {
		lkk := &f.l[k*nb+k]
		if !chol6(lkk) {
			return false
		}
		for _, r := range bp.below[k] {
			solveRightLT(&f.l[r*nb+k], lkk)
		}
		for _, a := range bp.below[k] { // the Schur complement, on and below the diagonal
			for _, b := range bp.below[k] {
				if bp.pos[a] >= bp.pos[b] {
					subMulT(&f.l[a*nb+b], &f.l[a*nb+k], &f.l[b*nb+k])
				}
			}
		}
	}
	return true
}

// solve overwrites g (np values) with the solution of the factored
// system.
func (f *blockFactor) solve(g []float64) {
	bp := f.bp
	nj, nb := bp.nj, bp.nj+1
	np := 6*nj + 3
	y := make([][6]float64, nb)
	for b := 0; b < nb; b++ {
		for i := 0; i < 6; i++ {
			if x := f.offset(b) + i; x < np {
				y[b][i] = g[x]
			}
		}
	}
	for _, k := range bp.order { // L y = g
		forward6(&f.l[k*nb+k], &y[k])
		for _, r := range bp.below[k] {
			mulSub6(&y[r], &f.l[r*nb+k], &y[k])
		}
	}
	for p := len(bp.order) - 1; p >= 0; p-- { // Lᵀ x = y
		k := bp.order[p]
		for _, r := range bp.below[k] {
			mulTSub6(&y[k], &f.l[r*nb+k], &y[r])
		}
		backward6(&f.l[k*nb+k], &y[k])
	}
	for b := 0; b < nb; b++ {
		for i := 0; i < 6; i++ {
			if x := f.offset(b) + i; x < np {
				g[x] = y[b][i]
			}
		}
	}
}

// chol6 factors a symmetric 6×6 block in place into its lower Cholesky
// factor (the upper triangle is left as is, unused).
func chol6(a *[36]float64) bool {
	for j := 0; j < 6; j++ {
		d := a[j*6+j]
		for k := 0; k < j; k++ {
			d -= a[j*6+k] * a[j*6+k]
		}
		if !(d > 0) || math.IsInf(d, 0) {
			return false
		}
		d = math.Sqrt(d)
		a[j*6+j] = d
		for i := j + 1; i < 6; i++ {
			s := a[i*6+j]
			for k := 0; k < j; k++ {
				s -= a[i*6+k] * a[j*6+k]
			}
			a[i*6+j] = s / d
		}
	}
	return true
}

// solveRightLT replaces b by b·L⁻ᵀ, L the lower factor in l.
func solveRightLT(b, l *[36]float64) {
	for r := 0; r < 6; r++ {
		for j := 0; j < 6; j++ {
			s := b[r*6+j]
			for k := 0; k < j; k++ {
				s -= b[r*6+k] * l[j*6+k]
			}
			b[r*6+j] = s / l[j*6+j]
		}
	}
}

// subMulT does c −= a·bᵀ (unrolled: the factor's inner loop).
func subMulT(c, a, b *[36]float64) {
	for r := 0; r < 36; r += 6 {
		a0, a1, a2, a3, a4, a5 := a[r], a[r+1], a[r+2], a[r+3], a[r+4], a[r+5]
		for s := 0; s < 36; s += 6 {
			c[r+s/6] -= a0*b[s] + a1*b[s+1] + a2*b[s+2] + a3*b[s+3] + a4*b[s+4] + a5*b[s+5]
		}
	}
}

// forward6 solves L x = y in place.
func forward6(l *[36]float64, y *[6]float64) {
	for i := 0; i < 6; i++ {
		s := y[i]
		for k := 0; k < i; k++ {
			s -= l[i*6+k] * y[k]
		}
		y[i] = s / l[i*6+i]
	}
}

// backward6 solves Lᵀ x = y in place.
func backward6(l *[36]float64, y *[6]float64) {
	for i := 5; i >= 0; i-- {
		s := y[i]
		for k := i + 1; k < 6; k++ {
			s -= l[k*6+i] * y[k]
		}
		y[i] = s / l[i*6+i]
	}
}

// mulSub6 does y −= a·x.
func mulSub6(y *[6]float64, a *[36]float64, x *[6]float64) {
	for r := 0; r < 6; r++ {
		var v float64
		for k := 0; k < 6; k++ {
			v += a[r*6+k] * x[k]
		}
		y[r] -= v
	}
}

// mulTSub6 does y −= aᵀ·x.
func mulTSub6(y *[6]float64, a *[36]float64, x *[6]float64) {
	for c := 0; c < 6; c++ {
		var v float64
		for k := 0; k < 6; k++ {
			v += a[k*6+c] * x[k]
		}
		y[c] -= v
	}
}
