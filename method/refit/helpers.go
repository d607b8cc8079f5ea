package refit

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Helper bones (Options.Helpers): a body rig replays a cache made by a
// richer simulation (muscle, flesh, cloth) with an error where its bones
// cannot follow. Helper joints are added where that error is, each a leaf
// under the body joint it best follows, with its own rotation track (and
// translation with HelperTranslate); the locked joints' tracks are copied
// bit for bit and only the vertices within the helpers' reach get new
// weights. Dem Bones does this with its demLock attribute and free bone
// transforms; here every bone stays a joint of the hierarchy.
//
// Placement. The residual e_iᶠ = vᵢᶠ − v̂ᵢᶠ of the body rig is measured
// per vertex; the vertices that carry the worst 80% of its squared sum are
// clustered by motion similarity: k-means (farthest-point seeding from the
// worst vertex, deterministic) on the residual trajectory expressed in the
// frame of the vertex's dominant joint (so vertices that bulge alike
// relative to the limb group together) plus the rest position, scaled so
// a spread of a tenth of the diagonal counts as much as a typical
// residual (so the left and right arm's bulges stay apart). Each cluster
// becomes a helper: head at its rest centroid, parent the joint whose
// weights on it add up most, reach every vertex within 1.5 times its
// farthest member's distance from its centroid. A helper that only turns
// has its head at its parent's head (a turn about a far point moves the
// cluster across the limb, as a swelling muscle does); a sliding one at
// the centroid.
//
// Fit. Each helper starts as the rigid motion of its cluster (its
// rotation about the head, the head carried by the parent; with
// HelperTranslate the head moves too). Then rounds of (a) a weight solve
// of every vertex in reach over its own joints and the helpers reaching
// it (the data term of Le & Deng 2014 Eq. 5 on the simplex, kept when no
// better) and (b) per frame, each free joint's global rotation by a
// weighted Procrustes fit of the vertices its subtree moves (fitJoint),
// until a round gains under Tolerance.

// selectShare is the share of the body rig's squared error that the
// clustered vertices carry.
const selectShare = 0.8

// motionSweeps is how many parents-first sweeps over the free joints a
// round makes (a chain of free joints settles over several).
const motionSweeps = 3

// reachScale grows a helper's reach past its cluster's farthest member,
// so the weights can fade out around it.
const reachScale = 1.5

// maxFeatureFrames bounds the frames a clustering feature samples.
const maxFeatureFrames = 64

// addHelpers is Animation with o.Helpers > 0 or o.Lock set.
func addHelpers(ctx context.Context, r *rig.Rig, s *seq.Sequence, o Options, keep []bool) (*rig.Rig, Report, error) {
	if !skinFits(r) {
		return nil, Report{}, fmt.Errorf("refit: helpers need the body rig's skin, and it has none that fits its mesh")
	}
	total := 0
	for k := range r.Clips {
		if err := r.Clips[k].Validate(r.Skeleton.Len()); err != nil {
			return nil, Report{}, fmt.Errorf("refit: clip %q: %w", r.Clips[k].Name, err)
		}
		if r.Clips[k].HasScale() {
			return nil, Report{}, fmt.Errorf("refit: clip %q scales joints; helpers and locked joints need rotation and translation tracks only", r.Clips[k].Name)
		}
		total += r.Clips[k].Frames
	}
	if total != s.F() {
		return nil, Report{}, fmt.Errorf("refit: the rig's clips have %d frames, the animation %d: helpers keep the body's motion, so they must match", total, s.F())
	}
	nj := r.Skeleton.Len()
	locked := make([]bool, nj)
	if o.Lock == nil {
		for j := range locked {
			locked[j] = true
		}
	}
	for _, j := range o.Lock {
		if j < 0 || int(j) >= nj {
			return nil, Report{}, fmt.Errorf("refit: locked joint %d does not exist (%d joints)", j, nj)
		}
		locked[j] = true
	}
	hs := newHelperState(r, s)
	diag := mesh.Diagonal(r.Mesh.Verts)
	percent := func(e float64) float64 { return 100 * math.Sqrt(e/float64(hs.n*hs.f)) / diag }
	body := hs.sse()
	rep := Report{BodyRMSEPercent: percent(body), StartRMSEPercent: percent(body), WeightsFrom: "skin", MotionFrom: "clips"}

	hs.translate = o.HelperTranslate
	if o.Helpers > 0 {
		clusters, err := hs.cluster(o.Helpers, diag)
		if err != nil {
			return nil, Report{}, err
		}
		hs.addJoints(clusters, keep)
		hs.startHelpers(clusters)
	} else {
		hs.lockOnly = true
		hs.reachUnlocked(locked, keep)
	}
	for j := 0; j < nj; j++ {
		hs.free[j] = !locked[j]
	}
	prev := math.Inf(1)
	for it := 0; it < o.Iterations; it++ {
		if err := ctx.Err(); err != nil {
			return nil, Report{}, err
		}
		// Motion first: a lost track is found before any weight bends to it.
		for sweep := 0; sweep < motionSweeps; sweep++ {
			hs.fitMotion()
		}
		hs.solveWeights(o.MaxInfluences)
		e := hs.sse()
		rep.Rounds = it + 1
		o.Progress.Report("helpers", it+1, o.Iterations)
		if o.Tolerance > 0 && prev-e < o.Tolerance*prev {
			break
		}
		prev = e
	}
	rep.RMSEPercent = percent(hs.sse())
	for j := nj; j < hs.sk.Len(); j++ {
		rep.Helpers = append(rep.Helpers, rig.JointID(j))
	}
	out := hs.export(r)
	return out, rep, out.Validate()
}

// helperState is the rig being extended, in model units: skeleton with
// the helpers appended, skin, and local tracks over every frame of s.
type helperState struct {
	n, f, nb  int // vertices, frames, body joints
	rest      []linalg.Vec3
	frames    []linalg.Vec3f // s's positions, f·n+i
	sk        rig.Skeleton
	skin      rig.Skin
	rot       []linalg.Quat // local rotation, f·J+j
	trans     []linalg.Vec3 // local translation, f·J+j
	free      []bool        // per joint: its track is fitted
	translate bool
	lockOnly  bool            // no helpers added: translate applies to the unlocked joints
	reach     [][]rig.JointID // per vertex, the helpers reaching it (nil: none)
}

func newHelperState(r *rig.Rig, s *seq.Sequence) *helperState {
	nj := r.Skeleton.Len()
	hs := &helperState{n: s.N(), f: s.F(), nb: nj, rest: r.Mesh.Verts, frames: s.Frames,
		sk: rig.Skeleton{Joints: append([]rig.Joint(nil), r.Skeleton.Joints...)}, skin: append(rig.Skin(nil), r.Skin...),
		free: make([]bool, nj)}
	for _, c := range r.Clips {
		hs.rot = append(hs.rot, c.Rotation...)
		hs.trans = append(hs.trans, c.Translation...)
	}
	return hs
}

// skinMats returns frame f's skin matrices.
func (hs *helperState) skinMats(f int, pose, mats []linalg.Affine) ([]linalg.Affine, []linalg.Affine) {
	j := hs.sk.Len()
	c := rig.Clip{Frames: 1, Rotation: hs.rot[f*j : (f+1)*j], Translation: hs.trans[f*j : (f+1)*j]}
	pose = hs.sk.Pose(&c, 0, pose)
	return pose, hs.sk.SkinMatrices(pose, mats)
}

// sse is the squared error summed over vertices and frames.
func (hs *helperState) sse() float64 {
	per := make([]float64, hs.f)
	par.For(hs.f, 1, func(lo, hi int) {
		var pose, mats []linalg.Affine
		out := make([]linalg.Vec3, hs.n)
		for f := lo; f < hi; f++ {
			pose, mats = hs.skinMats(f, pose, mats)
			rig.Deform(out, hs.rest, hs.skin, mats)
			var e float64
			for i, p := range out {
				e += p.Sub(hs.frames[f*hs.n+i].Vec3()).Norm2()
			}
			per[f] = e
		}
	})
	var e float64
	for _, x := range per {
		e += x
	}
	return e
}

// cluster groups the vertices the body reproduces worst into k clusters
// by motion similarity (see the comment at the top of this file).
func (hs *helperState) cluster(k int, diag float64) ([][]int, error) {
	step := max(1, (hs.f+maxFeatureFrames-1)/maxFeatureFrames)
	var fs []int
	for f := 0; f < hs.f; f += step {
		fs = append(fs, f)
	}
	energy := make([]float64, hs.n)
	feat := make([]float64, hs.n*3*len(fs)) // residual in the dominant joint's frame
	dom := make([]rig.JointID, hs.n)
	for i := range dom {
		dom[i] = hs.skin[i].Dominant()
	}
	par.For(len(fs), 1, func(lo, hi int) {
		var pose, mats []linalg.Affine
		out := make([]linalg.Vec3, hs.n)
		for a := lo; a < hi; a++ {
			pose, mats = hs.skinMats(fs[a], pose, mats)
			rig.Deform(out, hs.rest, hs.skin, mats)
			for i := range out {
				e := hs.frames[fs[a]*hs.n+i].Vec3().Sub(out[i])
				l := pose[dom[i]].M.T().MulVec(e)
				copy(feat[(i*len(fs)+a)*3:], l[:])
			}
		}
	})
	var totalE float64
	for i := range energy {
		for _, x := range feat[i*3*len(fs) : (i+1)*3*len(fs)] {
			energy[i] += x * x
		}
		totalE += energy[i]
	}
	// Exactly, but for the float32 rounding of the frames (1e-6·d per
	// coordinate at most, for points within a few d of the origin).
	if tiny := 1e-6 * diag; totalE <= float64(len(feat))*tiny*tiny {
		return nil, fmt.Errorf("refit: the body rig replays the animation exactly: no error for helpers to take")
	}
	order := make([]int, hs.n)
	for i := range order {
		order[i] = i
	}
	sortByDesc(order, energy)
	var sel []int
	var cum float64
	for _, i := range order {
		if cum >= selectShare*totalE && len(sel) >= k {
			break
		}
		sel = append(sel, i)
		cum += energy[i]
	}
	if len(sel) < k {
		return nil, fmt.Errorf("refit: %d helpers asked for, but only %d vertices move off the body rig", k, len(sel))
	}
	lambda := math.Sqrt(cum/float64(len(sel))) / (0.1 * diag)
	dim := 3*len(fs) + 3
	x := make([]float64, len(sel)*dim)
	for a, i := range sel {
		copy(x[a*dim:], feat[i*3*len(fs):(i+1)*3*len(fs)])
		for c := 0; c < 3; c++ {
			x[a*dim+3*len(fs)+c] = lambda * hs.rest[i][c]
		}
	}
	label := kmeans(x, len(sel), dim, k)
	out := make([][]int, k)
	for a, l := range label {
		out[l] = append(out[l], sel[a])
	}
	return out, nil
}

// sortByDesc sorts idx by key, largest first, ties by index.
func sortByDesc(idx []int, key []float64) {
	sort.SliceStable(idx, func(a, b int) bool { return key[idx[a]] > key[idx[b]] })
}

// kmeans clusters m points of dimension dim into k groups: farthest-point
// seeding from point 0 (the worst vertex), then Lloyd iterations; an
// emptied cluster takes the point farthest from its centre.
func kmeans(x []float64, m, dim, k int) []int {
	cent := make([]float64, k*dim)
	copy(cent, x[:dim])
	dist := func(a int, c int) float64 {
		var s float64
		for d := 0; d < dim; d++ {
			t := x[a*dim+d] - cent[c*dim+d]
			s += t * t
		}
		return s
	}
	best := make([]float64, m)
	for a := range best {
		best[a] = dist(a, 0)
	}
	for c := 1; c < k; c++ {
		far := 0
		for a := range best {
			if best[a] > best[far] {
				far = a
			}
		}
		copy(cent[c*dim:(c+1)*dim], x[far*dim:(far+1)*dim])
		for a := range best {
			best[a] = min(best[a], dist(a, c))
		}
	}
	label := make([]int, m)
	for it := 0; it < 50; it++ {
		changed := false
		par.For(m, 64, func(lo, hi int) {
			for a := lo; a < hi; a++ {
				bc, bd := 0, math.Inf(1)
				for c := 0; c < k; c++ {
					if d := dist(a, c); d < bd {
						bc, bd = c, d
					}
				}
				best[a] = bd
				label[a] = bc
			}
		})
		count := make([]int, k)
		next := make([]float64, k*dim)
		for a, l := range label {
			count[l]++
			for d := 0; d < dim; d++ {
				next[l*dim+d] += x[a*dim+d]
			}
		}
		for c := 0; c < k; c++ {
			if count[c] == 0 {
				far := 0
				for a := range best {
					if best[a] > best[far] {
						far = a
					}
				}
				best[far] = 0
				copy(next[c*dim:(c+1)*dim], x[far*dim:(far+1)*dim])
				changed = true
				continue
			}
			for d := 0; d < dim; d++ {
				next[c*dim+d] /= float64(count[c])
			}
		}
		for d := range cent {
			if next[d] != cent[d] {
				changed = true
			}
		}
		cent = next
		if !changed {
			break
		}
	}
	return label
}

// addJoints appends one helper per cluster and marks each vertex's reach.
func (hs *helperState) addJoints(clusters [][]int, keep []bool) {
	used := map[string]bool{}
	for _, jt := range hs.sk.Joints {
		used[jt.Name] = true
	}
	J0 := hs.sk.Len()
	hs.reach = make([][]rig.JointID, hs.n)
	for c, members := range clusters {
		var head linalg.Vec3
		overlap := make([]float64, hs.nb)
		for _, i := range members {
			head = head.Add(hs.rest[i])
			in := hs.skin[i]
			for k, w := range in.Weight {
				if w > 0 {
					overlap[in.Joint[k]] += w
				}
			}
		}
		head = head.Scale(1 / float64(len(members)))
		parent := 0
		for j := range overlap {
			if overlap[j] > overlap[parent] {
				parent = j
			}
		}
		var radius float64
		for _, i := range members {
			radius = max(radius, hs.rest[i].Dist(head))
		}
		centroid := head
		if !hs.translate {
			// A helper that only turns carries its cluster best from afar:
			// about the parent's head, a turn moves the cluster across
			// the limb, as a swelling muscle does.
			head = hs.sk.Joints[parent].Head
		}
		name := fmt.Sprintf("helper_%s_%d", hs.sk.Joints[parent].Name, c+1)
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("helper_%s_%d_%d", hs.sk.Joints[parent].Name, c+1, k)
		}
		used[name] = true
		hs.sk.Joints = append(hs.sk.Joints, rig.Joint{Name: name, Parent: rig.JointID(parent), Head: head})
		id := rig.JointID(J0 + c)
		for i, p := range hs.rest {
			if p.Dist(centroid) <= reachScale*radius && (keep == nil || !keep[i]) {
				hs.reach[i] = append(hs.reach[i], id)
			}
		}
	}
	// Tracks widen to the new joint count: helpers start at rest offsets.
	J := hs.sk.Len()
	rot := make([]linalg.Quat, hs.f*J)
	trans := make([]linalg.Vec3, hs.f*J)
	for f := 0; f < hs.f; f++ {
		copy(rot[f*J:], hs.rot[f*J0:(f+1)*J0])
		copy(trans[f*J:], hs.trans[f*J0:(f+1)*J0])
		for j := J0; j < J; j++ {
			rot[f*J+j] = linalg.IdentityQuat
			trans[f*J+j] = hs.sk.Offset(rig.JointID(j))
		}
	}
	hs.rot, hs.trans = rot, trans
	hs.free = append(hs.free, make([]bool, J-J0)...)
	for j := J0; j < J; j++ {
		hs.free[j] = true
	}
}

// reachUnlocked lets every vertex not kept take weight on the unlocked
// joints (the first maxCand−4 of them: its own four take the rest).
func (hs *helperState) reachUnlocked(locked, keep []bool) {
	var open []rig.JointID
	for j, l := range locked {
		if !l && len(open) < maxCand-4 {
			open = append(open, rig.JointID(j))
		}
	}
	hs.reach = make([][]rig.JointID, hs.n)
	if len(open) == 0 {
		return
	}
	for i := range hs.reach {
		if keep == nil || !keep[i] {
			hs.reach[i] = open
		}
	}
}

// startHelpers gives each helper, per frame, the rigid motion that best
// carries its cluster (every member at weight 1).
func (hs *helperState) startHelpers(clusters [][]int) {
	J := hs.sk.Len()
	par.For(hs.f, 1, func(lo, hi int) {
		var pose []linalg.Affine
		for f := lo; f < hi; f++ {
			c := rig.Clip{Frames: 1, Rotation: hs.rot[f*J : (f+1)*J], Translation: hs.trans[f*J : (f+1)*J]}
			pose = hs.sk.Pose(&c, 0, pose)
			for k, members := range clusters {
				j := hs.nb + k
				head := hs.sk.Joints[j].Head
				a := make([]linalg.Vec3, len(members))
				b := make([]linalg.Vec3, len(members))
				s := make([]float64, len(members))
				for m, i := range members {
					a[m], b[m], s[m] = hs.rest[i].Sub(head), hs.frames[f*hs.n+i].Vec3(), 1
				}
				hs.setGlobal(f, j, pose, a, b, s)
			}
		}
	})
}

// setGlobal fits joint j's global rotation at frame f (its head where the
// parent carries it, or free with translate on a helper) so that
// R·aᵢ + sᵢ·p best matches bᵢ, and stores it as j's local track.
func (hs *helperState) setGlobal(f, j int, pose []linalg.Affine, a, b []linalg.Vec3, s []float64) {
	J := hs.sk.Len()
	parent := hs.sk.Joints[j].Parent
	var pg linalg.Affine
	if parent == rig.NoParent {
		pg = linalg.Affine{M: linalg.IdentityQuat.Mat3()}
	} else {
		pg = pose[parent]
	}
	p := pg.Apply(hs.trans[f*J+j])
	slide := hs.translate && (j >= hs.nb || hs.lockOnly)
	var s2 float64
	var sa, sb linalg.Vec3
	if slide {
		for m := range a {
			s2 += s[m] * s[m]
			sa = sa.Add(a[m].Scale(s[m]))
			sb = sb.Add(b[m].Scale(s[m]))
		}
		if s2 == 0 {
			return
		}
		sa, sb = sa.Scale(1/s2), sb.Scale(1/s2)
	}
	// With p free it is r̄ − R·ā at the optimum (ā, r̄ the s-weighted
	// means), which leaves a centred Procrustes problem (Horn 1987).
	var m linalg.Mat3
	for k := range a {
		src, dst := a[k], b[k].Sub(p.Scale(s[k]))
		if slide {
			src, dst = a[k].Sub(sa.Scale(s[k])), b[k].Sub(sb.Scale(s[k]))
		}
		m = m.Add(linalg.Outer(dst, src))
	}
	q := linalg.BestRotation(m)
	var pq linalg.Quat
	if parent == rig.NoParent {
		pq = linalg.IdentityQuat
	} else {
		pq = linalg.QuatFromMat3(pg.M)
	}
	hs.rot[f*J+j] = pq.Conj().Mul(q).Normalize()
	if slide {
		np := sb.Sub(q.Mat3().MulVec(sa))
		inv, _ := pg.Inverse()
		hs.trans[f*J+j] = inv.Apply(np)
	}
}

// fitMotion fits, per frame, every free joint's global rotation to the
// vertices its subtree moves, the other joints' tracks held (one sweep,
// parents first).
func (hs *helperState) fitMotion() {
	J := hs.sk.Len()
	sub := hs.subtrees()
	movers := make([][]int, J) // per free joint, the vertices its subtree moves
	for i, in := range hs.skin {
		for j := 0; j < J; j++ {
			if !hs.free[j] {
				continue
			}
			for k, w := range in.Weight {
				if w > 0 && sub[j][in.Joint[k]] {
					movers[j] = append(movers[j], i)
					break
				}
			}
		}
	}
	par.For(hs.f, 1, func(lo, hi int) {
		var pose, mats []linalg.Affine
		var a, b []linalg.Vec3
		var s []float64
		for f := lo; f < hi; f++ {
			for j := 0; j < J; j++ {
				if !hs.free[j] || len(movers[j]) == 0 {
					continue
				}
				pose, mats = hs.skinMats(f, pose, mats)
				inv, _ := pose[j].Inverse()
				a, b, s = a[:0], b[:0], s[:0]
				for _, i := range movers[j] {
					x := hs.rest[i]
					in := hs.skin[i]
					var ai, other linalg.Vec3
					var si float64
					for k, w := range in.Weight {
						if w == 0 {
							continue
						}
						jk := in.Joint[k]
						if sub[j][jk] {
							// Rel_k(x − head_k) in j's frame, with Rel_k = G_j⁻¹G_k.
							ai = ai.Add(inv.ApplyDir(pose[jk].M.MulVec(x.Sub(hs.sk.Joints[jk].Head))).Add(inv.ApplyDir(pose[jk].T.Sub(pose[j].T))).Scale(w))
							si += w
						} else {
							other = other.Add(mats[jk].Apply(x).Scale(w))
						}
					}
					a, b, s = append(a, ai), append(b, hs.frames[f*hs.n+i].Vec3().Sub(other)), append(s, si)
				}
				hs.setGlobal(f, j, pose, a, b, s)
			}
		}
	})
}

// subtrees marks, per joint, the joints of its subtree.
func (hs *helperState) subtrees() [][]bool {
	J := hs.sk.Len()
	sub := make([][]bool, J)
	for j := J - 1; j >= 0; j-- {
		sub[j] = make([]bool, J)
		sub[j][j] = true
	}
	for j := J - 1; j > 0; j-- {
		for p := hs.sk.Joints[j].Parent; p != rig.NoParent; p = hs.sk.Joints[p].Parent {
			sub[p][j] = true
		}
	}
	return sub
}

// solveWeights re-solves the weights of every vertex in a helper's reach
// over its own joints and the helpers reaching it, keeping the old ones
// when they fit better.
func (hs *helperState) solveWeights(maxInf int) {
	J := hs.sk.Len()
	mats := make([]linalg.Affine, hs.f*J)
	par.For(hs.f, 1, func(lo, hi int) {
		var pose, m []linalg.Affine
		for f := lo; f < hi; f++ {
			pose, m = hs.skinMats(f, pose, m)
			copy(mats[f*J:], m)
		}
	})
	par.For(hs.n, 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if hs.reach[i] == nil {
				continue
			}
			hs.skin[i] = hs.solveVertex(i, mats, maxInf)
		}
	})
}

// solveVertex is one vertex's weight solve (Le & Deng 2014 Eq. 5's data
// term over the vertex's candidates, on the simplex).
func (hs *helperState) solveVertex(i int, mats []linalg.Affine, maxInf int) rig.Influence {
	J := hs.sk.Len()
	old := hs.skin[i]
	var cand [maxCand]rig.JointID
	n := 0
	add := func(j rig.JointID) {
		for c := 0; c < n; c++ {
			if cand[c] == j {
				return
			}
		}
		if n < maxCand {
			cand[n] = j
			n++
		}
	}
	for k, w := range old.Weight {
		if w > 0 {
			add(old.Joint[k])
		}
	}
	for _, j := range hs.reach[i] {
		add(j)
	}
	var g [maxCand * maxCand]float64
	var h [maxCand]float64
	x := hs.rest[i]
	for f := 0; f < hs.f; f++ {
		var y [maxCand]linalg.Vec3
		for c := 0; c < n; c++ {
			y[c] = mats[f*J+int(cand[c])].Apply(x)
		}
		v := hs.frames[f*hs.n+i].Vec3()
		for a := 0; a < n; a++ {
			h[a] += y[a].Dot(v)
			for b := 0; b < n; b++ {
				g[a*n+b] += y[a].Dot(y[b])
			}
		}
	}
	var w, ow [maxCand]float64
	for k, wt := range old.Weight {
		for c := 0; c < n; c++ {
			if wt > 0 && cand[c] == old.Joint[k] {
				ow[c] += wt
			}
		}
	}
	linalg.SimplexLS(g[:n*n], h[:n], n, ridge, w[:n])
	w = keepLargest(g[:n*n], h[:n], n, maxInf, w)
	if quadratic(g[:n*n], h[:n], n, ow[:n]) <= quadratic(g[:n*n], h[:n], n, w[:n]) {
		return old
	}
	var in rig.Influence
	out := 0
	for c := 0; c < n; c++ {
		if w[c] > 0 && out < 4 {
			in.Joint[out], in.Weight[out] = cand[c], w[c]
			out++
		}
	}
	return in.Normalized()
}

// export builds the result: r's mesh, the skeleton with the helpers, the
// skin, and r's clips widened by the helpers' tracks (locked joints'
// values copied, not recomputed).
func (hs *helperState) export(r *rig.Rig) *rig.Rig {
	J := hs.sk.Len()
	out := &rig.Rig{Mesh: r.Mesh, Skeleton: hs.sk, Skin: hs.skin}
	f0 := 0
	for _, c := range r.Clips {
		nc := rig.Clip{Name: c.Name, FPS: c.FPS, Frames: c.Frames,
			Rotation:    append([]linalg.Quat(nil), hs.rot[f0*J:(f0+c.Frames)*J]...),
			Translation: append([]linalg.Vec3(nil), hs.trans[f0*J:(f0+c.Frames)*J]...)}
		for f := 0; f < c.Frames; f++ {
			for j := 0; j < hs.nb; j++ {
				if !hs.free[j] {
					nc.Rotation[f*J+j] = c.Rotation[f*hs.nb+j]
					nc.Translation[f*J+j] = c.Translation[f*hs.nb+j]
				}
			}
		}
		out.Clips = append(out.Clips, nc)
		f0 += c.Frames
	}
	return out
}
