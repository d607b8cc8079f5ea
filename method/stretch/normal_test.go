package stretch

import (
	"math"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// TestNormalEquations compares the moments' JᵀJ and Jᵀr with central
// differences of the replayed vertices over every parameter — each
// joint's rotation increment R·exp[ω]×, log-scale increment S·exp δ, and
// the root translation — on a squashing, bending tube whose frame is
// away from its target (a non-zero residual). The blocks between two
// joints are where an earlier per-vertex accumulation was wrong.
func TestNormalEquations(t *testing.T) {
	r := squashTube(t)
	s := testrig.Play(t, r)
	nj := r.Skeleton.Len()
	f := s.F() / 3
	cl := &r.Clips[0]
	st := frameOf(cl, f, nj)
	// Move the state off the target so the residual is not zero.
	st.rot[1] = st.rot[1].Mul(linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, 0.2)).Normalize()
	st.scale[2] = linalg.Vec3{1.2, 0.9, 1}
	st.trans[0] = st.trans[0].Add(linalg.Vec3{0.05, 0, 0})
	y := s.FrameInto(nil, (f+5)%s.F())

	fr := newFitter(r, false)
	sc := fr.scratch()
	np := 6*nj + 3
	g := make([]float64, np)
	sc.t.set(r, y)
	fr.sse(st, sc)
	hd, ok := fr.normalEquations(st, sc, newMoments(fr.tree), g)
	if !ok {
		t.Fatal("singular pose")
	}
	res := replay(fr, st, sc)
	for i := range y {
		res[i] = res[i].Sub(y[i])
	}

	// The numerical Jacobian, a column per parameter.
	const eps = 1e-5
	cols := make([][]linalg.Vec3, np)
	replay := func(p int, h float64) []linalg.Vec3 {
		x := frameState{append([]linalg.Quat(nil), st.rot...), append([]linalg.Vec3(nil), st.trans...), append([]linalg.Vec3(nil), st.scale...)}
		switch j, q := p/6, p%6; {
		case p >= 6*nj:
			x.trans[0][p-6*nj] += h
		case q < 3:
			var e linalg.Vec3
			e[q] = 1
			x.rot[j] = x.rot[j].Mul(linalg.QuatFromAxisAngle(e, h))
		default:
			x.scale[j][q-3] *= math.Exp(h)
		}
		return replay(fr, x, sc)
	}
	for p := range cols {
		plus, minus := replay(p, eps), replay(p, -eps)
		cols[p] = make([]linalg.Vec3, len(y))
		for i := range plus {
			cols[p][i] = plus[i].Sub(minus[i]).Scale(1 / (2 * eps))
		}
	}
	var top float64
	for _, v := range hd {
		top = math.Max(top, math.Abs(v))
	}
	for x := 0; x < np; x++ {
		var gx float64
		for i := range res {
			gx += cols[x][i].Dot(res[i])
		}
		if d := math.Abs(gx - g[x]); d > 1e-5*top {
			t.Errorf("(Jᵀr)[%d] = %.6g, central differences %.6g", x, g[x], gx)
		}
		for y2 := 0; y2 <= x; y2++ {
			var h float64
			for i := range res {
				h += cols[x][i].Dot(cols[y2][i])
			}
			if d := math.Abs(h - hd[x*np+y2]); d > 1e-5*top {
				t.Errorf("(JᵀJ)[%d][%d] = %.6g, central differences %.6g", x, y2, hd[x*np+y2], h)
			}
		}
	}
}

// replay poses st (fr.sse) and returns every vertex by LBS, vertex by
// vertex: the model the sums stand for.
func replay(fr *fitter, st frameState, sc *scratch) []linalg.Vec3 {
	fr.sse(st, sc)
	v := make([]linalg.Vec3, len(fr.r.Skin))
	for i, in := range fr.r.Skin {
		for k := 0; k < rig.MaxInfluences; k++ {
			if w := in.Weight[k]; w != 0 {
				v[i] = v[i].Add(sc.m[in.Joint[k]].Apply(fr.r.Mesh.Verts[i]).Scale(w))
			}
		}
	}
	return v
}

// TestEnergyFromSums: the error from the skin's pair sums is the error of
// the replayed vertices, on the squashing tube away from its target and
// on a skin with one joint in two slots of a vertex.
func TestEnergyFromSums(t *testing.T) {
	r := squashTube(t)
	s := testrig.Play(t, r)
	nj := r.Skeleton.Len()
	// One vertex with joint 1 twice: its two slots' cross terms both count.
	r.Skin[5].Joint[2], r.Skin[5].Weight[2] = r.Skin[5].Joint[0], r.Skin[5].Weight[0]/2
	r.Skin[5].Weight[0] /= 2
	fr := newFitter(r, false)
	sc := fr.scratch()
	for _, f := range []int{0, s.F() / 3, s.F() - 1} {
		cl := &r.Clips[0]
		st := frameOf(cl, f, nj)
		st.rot[2] = st.rot[2].Mul(linalg.QuatFromAxisAngle(linalg.Vec3{0, 1, 0}, 0.3)).Normalize()
		y := s.FrameInto(nil, (f+7)%s.F())
		sc.t.set(r, y)
		got := fr.sse(st, sc)
		var want float64
		for i, v := range replay(fr, st, sc) {
			want += v.Sub(y[i]).Norm2()
		}
		if want == 0 || math.Abs(got-want) > 1e-9*want {
			t.Errorf("frame %d: error from sums %.12g, replayed %.12g", f, got, want)
		}
	}
}

// TestLeverSums: a joint step's sums from the skin's pair sums are the
// sums over its vertices of the replayed residuals and levers, for every
// joint of the squashing tube away from its target (the root's too).
func TestLeverSums(t *testing.T) {
	r := squashTube(t)
	s := testrig.Play(t, r)
	nj := r.Skeleton.Len()
	f := s.F() / 4
	cl := &r.Clips[0]
	st := frameOf(cl, f, nj)
	st.rot[1] = st.rot[1].Mul(linalg.QuatFromAxisAngle(linalg.Vec3{1, 0, 0}, 0.25)).Normalize()
	st.scale[1] = linalg.Vec3{0.8, 1.1, 1}
	y := s.FrameInto(nil, (f+9)%s.F())
	fr := newFitter(r, false)
	sc := fr.scratch()
	sc.t.set(r, y)
	v := replay(fr, st, sc)
	for j := 0; j < nj; j++ {
		h := r.Skeleton.Joints[j].Head
		var zaT, aaT linalg.Mat3
		var zs, as linalg.Vec3
		for i, in := range r.Skin {
			for k := 0; k < rig.MaxInfluences; k++ {
				w := in.Weight[k]
				if w == 0 || int(in.Joint[k]) != j {
					continue
				}
				p := r.Mesh.Verts[i]
				z := y[i].Sub(v[i].Sub(sc.m[j].Apply(p).Scale(w)))
				a := p.Sub(h).Scale(w)
				zaT, aaT = zaT.Add(linalg.Outer(z, a)), aaT.Add(linalg.Outer(a, a))
				zs, as = zs.Add(z.Scale(w)), as.Add(a.Scale(w))
			}
		}
		gz, ga, gzs, gas := fr.leverSums(j, sc)
		scale := 1 + math.Sqrt(frobenius(zaT)+frobenius(aaT))
		if d := frobenius(gz.Sub(zaT)) + frobenius(ga.Sub(aaT)) + gzs.Sub(zs).Norm2() + gas.Sub(as).Norm2(); math.Sqrt(d) > 1e-9*scale {
			t.Errorf("joint %d: lever sums differ from the replayed vertices' by %.3g", j, math.Sqrt(d))
		}
	}
}

func frobenius(m linalg.Mat3) float64 {
	var s float64
	for r := 0; r < 3; r++ {
		s += m[r][0]*m[r][0] + m[r][1]*m[r][1] + m[r][2]*m[r][2]
	}
	return s
}

// frameOf is a copy of clip cl's frame f (nj joints) as a frameState.
func frameOf(cl *rig.Clip, f, nj int) frameState {
	st := frameState{
		rot:   append([]linalg.Quat(nil), cl.Rotation[f*nj:(f+1)*nj]...),
		trans: append([]linalg.Vec3(nil), cl.Translation[f*nj:(f+1)*nj]...),
		scale: make([]linalg.Vec3, nj),
	}
	for j := range st.scale {
		st.scale[j] = cl.ScaleAt(f, j, nj)
	}
	return st
}
