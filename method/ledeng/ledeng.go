package ledeng

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/method/skinning"
	"github.com/meshrig/meshrig/method/weld"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Name is the method's name in reports and on the command line (Le & Deng 2014).
const Name = "ledeng"

// maxTotalIterations bounds the rigging iterations over all pruning
// restarts, so a model that sheds bones one at a time still finishes.
const maxTotalIterations = 400

// finalIterations bounds the rounds of exact skeletal transform fits,
// joint positions and weight updates after the rigging loop; they stop
// earlier once a round gains less than finalTol of the error. The rounds
// converge slowly and steadily (lion-poses: RMSE% 0.40 after 3, 0.36
// after 10, 0.34 after 30); 1% stops the articulated sequences after
// 13–15 rounds, and the cap stops the elastic cow, which keeps gaining a
// little (28 rounds: RMSE% 0.685 in 2.3 s; 15: 0.710 in 1.9 s).
const finalIterations = 15

const finalTol = 1e-2

// finalSweeps bounds the rotation sweeps of the fits on every frame
// (above skinning's Newton bound; below it two sweeps, then Newton steps).
const finalSweeps = 30

// Rig extracts a skeletal rig from s. The result has one clip per clip of
// s, a skeleton rooted near the rest pose's centroid, at most
// opt.MaxInfluences weights per vertex, and rigid bones (unless opt.Free,
// which returns the free form of rig.NewFree).
func Rig(ctx context.Context, s *seq.Sequence, opt Options) (*rig.Rig, error) {
	// The coarse search costs about an eighth: with the automatic count
	// it starts from twice the default clusters (the paper's
	// initialization over-estimates). From 32 it found too few bones
	// (a generated 103k-vertex biped: 12 for 17 joints; from 64, 22 at
	// RMSE% 0.056), and from 64 the shared sequences' errors are lower
	// (lion-poses 0.406 → 0.290, horse-gallop 0.184 → 0.169).
	fastInit := opt.coarse() && opt.InitBones <= 0 && opt.Bones <= 0
	if opt.Search < SearchAuto || opt.Search > SearchFull {
		return nil, fmt.Errorf("ledeng: unknown %v", opt.Search)
	}
	opt = opt.withDefaults()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	us := method.NewUnitSphere(s.Rest.Verts)
	// The model of s reads s's frames, mapped into the unit sphere, as it
	// goes: no copy of them.
	full := skinning.View(s, us)
	// p is the welded model every step works on; the rig is carried to
	// the input's vertices (full) at the end.
	m, _, w := skinning.WeldSeams(s, full)
	if w != nil {
		opt.Notes.Add(fmt.Sprintf("ledeng: %d vertices welded to coincident ones (seams) for patches and smoothness", w.Merged()))
	}
	p := &problem{m}
	if p.rigidMotion() {
		opt.Notes.Add("the animation moves as one rigid body (or not at all): one bone")
		return p.oneBone(s, us, full, w, opt)
	}

	frames := p.SampleFrames(opt.SampleFrames)
	q := p // the problem the skeleton is found on: p, or a subset of its frames
	if len(frames) < p.F {
		q = &problem{p.Subset(frames)}
	}
	// The rigidness Laplacian (§6.1) from the frames the skeleton is
	// found on: the edges' length spread over 40 frames spread over the
	// motion is the spread over all of them, closely enough, at a fraction
	// of the cost on long sequences.
	lap := q.rigidness()
	if opt.coarse() {
		fo := opt
		if fastInit {
			fo.InitBones *= 2
		}
		if c, of, levels := q.coarseFor(initialTarget(fo)); levels > 0 {
			opt.Notes.Add(fmt.Sprintf("ledeng: the skeleton found on %d vertices (%d pairings of the %d; --search full for every vertex)", c.N, levels, q.N))
			h, err := p.fastFit(ctx, fo, c, of, lap)
			if err != nil {
				return nil, err
			}
			return p.finish(h, s, us, full, w, !opt.Refitted)
		}
	}
	joints, err := q.findBones(ctx, opt, lap)
	if err != nil {
		return nil, err
	}
	noteFewer(opt, q.B)
	sweeps := smoothingSweeps(p.N)
	if opt.Free {
		q.carryTo(p, joints, 0)
		ws := &weightSolver{p: p, k: opt.MaxInfluences, omega: opt.Smoothness, lap: lap, keep: opt.Bones > 0}
		for it := 0; it < 2; it++ {
			ws.update(sweeps)
			p.UpdateTransforms(0, nil)
		}
		if full := skinning.Spread(p.Model, full, w); full != p.Model {
			full.UpdateTransforms(0, nil)
			return full.FreeRig(s, us)
		}
		return p.FreeRig(s, us)
	}
	// Output: the joint-rotation hierarchy, refined so the rig as exported
	// fits: exact skeletal rotations, joint positions, then weights — on
	// the sampled frames, then every frame's transforms under the result.
	h, err := q.skeletalFit(ctx, opt, joints, lap)
	if err != nil {
		return nil, err
	}
	if q != p {
		q.carryTo(p, joints, finalLambda(opt))
		p.refine(&h, opt, lap)
	}
	return p.finish(h, s, us, full, w, !opt.Refitted)
}

// noteFewer says so when the search found fewer bones, b, than asked for.
func noteFewer(opt Options, b int) {
	if opt.Bones > 0 && b < opt.Bones {
		opt.Notes.Add(fmt.Sprintf("ledeng: %d bones, not the %d asked for: the clustering finds no more independently moving parts in the motion", b, opt.Bones))
	}
}

// skeletalFit turns q's bones, soft joints and weights into the
// joint-rotation hierarchy and fits it exactly (FitSkeletonUntil), lap
// being q's rigidness Laplacian.
func (q *problem) skeletalFit(ctx context.Context, opt Options, joints []skinning.Joint, lap []float64) (skinning.Hierarchy, error) {
	h := q.Root(joints)
	q.Constrain(h)
	qs := &weightSolver{p: q, k: opt.MaxInfluences, omega: opt.Smoothness, lap: lap, keep: opt.Bones > 0}
	// One smoothing sweep per round, not smoothingSweeps: the rounds
	// repeat the sweep anyway, and the weights were smoothed in the
	// rigging loop (cat-poses at 28 bones: 12% less time). Momentum 1 (see
	// FitSkeletonUntil) reaches a lower error in fewer rounds: RMSE% at
	// the counts compared with Dem Bones 0.285 (cat-poses), 0.279 (lion),
	// 0.189 (horse), 1.437 (cow), against 0.287, 0.282, 0.195, 1.448
	// without, in about the same time.
	err := q.FitSkeletonUntil(ctx, &h, finalIterations, skinning.FitSweeps, finalTol, 1, func() { qs.update(1) },
		func(done, total int) { opt.Progress.Report("skeletal fit", done, total) })
	return h, err
}

// refine makes p's transforms (from carryTo or fastFit) skeletal under h
// and fits one round on every frame: rotations (Newton steps),
// joint positions, then weights (lap p's rigidness Laplacian).
func (p *problem) refine(h *skinning.Hierarchy, opt Options, lap []float64) {
	p.Constrain(*h)
	p.FitRotationsNewton(*h, finalSweeps)
	p.FitJoints(h)
	ws := &weightSolver{p: p, k: opt.MaxInfluences, omega: opt.Smoothness, lap: lap, keep: opt.Bones > 0}
	ws.update(smoothingSweeps(p.N))
}

// finish fits every frame's rotations under h with Newton steps (unless
// not fit: Options.Refitted), the weights and joints being final, on p
// and then on the input's every vertex, seam copies included, and returns
// the rig in the input's units.
// Newton steps (FitRotationsNewton, where 30 block sweeps had stopped
// short) lower RMSE% at no cost: at Dem Bones' counts with the full
// search cat-poses 0.2852 → 0.2851, lion 0.2787 → 0.2785, horse 0.1895 →
// 0.1883, cow 1.4371 → 1.4294; the automatic horse 0.1838 → 0.1820, cow
// 0.542 → 0.519.
func (p *problem) finish(h skinning.Hierarchy, s *seq.Sequence, us method.UnitSphere, full *skinning.Model, w *weld.Result, fit bool) (*rig.Rig, error) {
	if fit {
		p.FitRotationsNewton(h, finalSweeps)
	}
	if full := skinning.Spread(p.Model, full, w); full != p.Model {
		p = &problem{full}
		if fit {
			p.FitRotationsNewton(h, finalSweeps)
		}
	}
	r := p.SkeletalRig(h, s)
	us.RigFrom(r, s.Rest)
	return r, r.Validate()
}

// fastFit is SearchCoarse's search (coarse.go): §4–§6 and the exact
// skeletal fit on the coarse problem c (of maps p's vertices to c's),
// then the bones and weights carried to p, every frame's transforms
// fitted (a rigid fit per bone, or soft joints above
// skinning.NewtonBones) and made skeletal, and one round of rotations
// (Newton steps), joints and weights on p. It returns the hierarchy.
func (p *problem) fastFit(ctx context.Context, opt Options, c *problem, of []int32, lap []float64) (skinning.Hierarchy, error) {
	clap := c.rigidness()
	joints, err := c.findBones(ctx, opt, clap)
	if err != nil {
		return skinning.Hierarchy{}, err
	}
	noteFewer(opt, c.B)
	h, err := c.skeletalFit(ctx, opt, joints, clap)
	if err != nil {
		return h, err
	}
	c.expandTo(p, of)
	if p.B <= skinning.NewtonBones {
		// A rigid fit per bone is start enough for the Newton steps: the
		// soft-joint updates cost 0.06 s of the cow's 0.46 at 11 bones
		// and changed its RMSE% by 0.002. Block sweeps alone need them:
		// when sweeps fitted the cow's automatic count from the coarse
		// search (43 bones, under a bound of 40), 0.623 without, 0.584
		// with.
		p.M = p.FitWeighted()
	} else {
		p.settle(joints, finalLambda(opt))
	}
	p.refine(&h, opt, lap)
	return h, nil
}

// carryTo moves the bones and weights found on q (a subset of p's frames)
// to p, fitting every frame's transforms from scratch: a weighted rigid fit
// per bone, then two transform updates with joint weight lambda.
func (q *problem) carryTo(p *problem, joints []skinning.Joint, lambda float64) {
	if q == p {
		return
	}
	p.B, p.WB, p.WW = q.B, q.WB, q.WW
	p.settle(joints, lambda)
}

// settle fits every frame's transforms to p's bones and weights from
// scratch: a weighted rigid fit per bone, then two transform updates
// with joint weight lambda.
func (p *problem) settle(joints []skinning.Joint, lambda float64) {
	p.M = p.FitWeighted()
	for it := 0; it < 2; it++ {
		p.UpdateTransforms(lambda, joints)
	}
}

// finalLambda is the joint weight λ where the rigging loop leaves it
// (×1.5 per iteration, §6), for transforms fitted again after it.
func finalLambda(opt Options) float64 { return math.Pow(1.5, float64(opt.Iterations)) }

// smoothingSweeps is the number of local-solver passes per weights update:
// 0.05% of the vertex count (§6.1), at least 1 and at most 20.
func smoothingSweeps(n int) int {
	return min(20, max(1, int(math.Round(0.0005*float64(n)))))
}

// findBones runs §4–§6 on p: initialization, skinning decomposition,
// topology and the iterative rigging with pruning, lap being p's
// rigidness Laplacian. It leaves p's bones,
// weights and transforms set and returns the skeleton's joints (nil with
// opt.Free).
func (p *problem) findBones(ctx context.Context, opt Options, lap []float64) ([]skinning.Joint, error) {
	target := initialTarget(opt)
	for {
		joints, a, err := p.findBonesFrom(ctx, opt, lap, target)
		if err != nil {
			return nil, err
		}
		// The automatic count must not be the initialization's: when
		// Level ended the pruning with three quarters of the initial
		// bones or more kept and the clustering had more parts to give,
		// the initialization was too coarse for the error asked for, and
		// the search starts again from twice as many clusters (up to
		// maxInitGrowth times InitBones). A count the knee of the error
		// curve stopped is the motion's, wherever it started. Starting
		// again whenever most bones were kept was tried: it costs a
		// second search on most inputs (the shared sequences' rigs took
		// 2–3 times as long), and on exact LBS data the search from more
		// clusters goes below the true count (a generated biped of 16k
		// vertices: 13 bones for 17 joints, against 27 from 32 clusters).
		// Starting from more every time is no better either: the
		// generated snake's joint error% is 0.98 from 32 clusters, 2.02
		// from 64.
		capped := a.byLevel && 4*p.B >= 3*a.initial && !(opt.MaxBones > 0 && p.B >= opt.MaxBones)
		if opt.Bones > 0 || opt.Free || !a.full || !capped || 2*target > maxInitGrowth*opt.InitBones {
			return joints, nil
		}
		opt.Notes.Add(fmt.Sprintf("ledeng: kept %d of %d initial bones; starting again from %d clusters", p.B, a.initial, 2*target))
		target *= 2
	}
}

// initialTarget is the initialization's cluster count: InitBones, or
// 1.25·Bones when that is more.
func initialTarget(opt Options) int {
	if opt.Bones > 0 {
		return max(opt.InitBones, int(math.Ceil(1.25*float64(opt.Bones))))
	}
	return opt.InitBones
}

// maxInitGrowth bounds how far findBones raises the initial cluster count.
const maxInitGrowth = 4

// attempt describes one search of findBonesFrom: its initial bone count,
// whether the clustering reached its target (the motion may have more
// parts), and whether Options.Level ended the pruning.
type attempt struct {
	initial int
	full    bool
	byLevel bool
}

// findBonesFrom is one search of findBones from target initial clusters;
// the attempt it returns says how it went.
func (p *problem) findBonesFrom(ctx context.Context, opt Options, lap []float64, target int) ([]skinning.Joint, attempt, error) {
	// §4 Initialization.
	report := func(stage string) func(done, total int) {
		return func(done, total int) { opt.Progress.Report(stage, done, total) }
	}
	bone, nb, full, err := p.initialBones(ctx, opt, target, report("clustering"))
	if err != nil {
		return nil, attempt{}, err
	}
	p.B = nb
	p.M = p.FitClusters(bone, nb)
	p.SetRigidWeights(bone)

	// §5 Skinning decomposition without skeleton: 10 iterations, one more
	// influence per vertex every 3.
	// With Bones set, a weight solve may empty a bone while there are
	// more than asked (a free removal), not once there are as many.
	keep := func() bool { return opt.Bones > 0 && p.B <= opt.Bones }
	ws := &weightSolver{p: p}
	for it := 0; it < 10; it++ {
		if err := ctx.Err(); err != nil {
			return nil, attempt{}, err
		}
		ws.keep = keep()
		ws.k = min(1+it/3, opt.MaxInfluences)
		ws.update(1)
		p.UpdateTransforms(0, nil)
		opt.Progress.Report("decomposition", it+1, 10)
	}
	var joints []skinning.Joint
	if !opt.Free {
		joints = p.topology()
	}

	// §6 Iterative rigging.
	ws.k = opt.MaxInfluences
	ws.omega = opt.Smoothness
	ws.lap = lap
	sweeps := smoothingSweeps(p.N)
	lambda := 1.0
	prev := math.Inf(1)
	pr := p.newPruner(opt.Prune, opt.Level)
	for it, total := 0, 0; it < opt.Iterations && total < maxTotalIterations; total++ {
		if err := ctx.Err(); err != nil {
			return nil, attempt{}, err
		}
		ws.keep = keep()
		ws.update(sweeps)
		var e float64
		if !opt.Free {
			p.updateJoints(joints)
			e = p.UpdateTransforms(lambda, joints)
		} else {
			e = p.UpdateTransforms(0, nil)
		}
		drop := p.redundant()
		if !opt.Free {
			for j, d := range p.stiffJoints(joints) {
				drop[j] = drop[j] || d
			}
		}
		if opt.Bones > 0 {
			p.keepAtLeast(drop, opt.Bones)
		}
		stop := false
		switch {
		case anyTrue(drop) || p.B == 1:
		case opt.Bones > 0:
			if p.B > opt.Bones {
				// Above the count asked for: the bones the others can
				// best do without, several at once while far above it.
				for _, j := range p.cheapestApart(ws.removalCost(), removalBatch(p.B-opt.Bones)) {
					drop[j] = true
				}
			} else if it >= settleIterations {
				// At the count asked for: the exact skeletal fit takes
				// over (see settleIterations).
				stop = true
			}
		case opt.MaxBones > 0 && p.B > opt.MaxBones:
			// Over the cap: the bone the others can best do without.
			drop[cheapest(ws.removalCost())] = true
		case opt.Prune > 0 && !opt.Free && it == pruneAt:
			switch pr.judge(p, e, joints) {
			case keepOn:
				drop = pr.pick(p, ws.removalCost(), joints, e)
			case goBack:
				joints = pr.good.joints
				drop = pr.pick(p, pr.goodCost, joints, pr.goodErr)
			default:
				// Pruning went too far: the last state within the
				// allowance is back in p, and the rigging ends there. It
				// had its iterations after its restart; more would only
				// stiffen the soft joints (λ keeps growing), which the
				// exact skeletal fit replaces anyway — measured: the same
				// or lower RMSE% on every dataset, in fewer iterations.
				joints = pr.good.joints
				stop = true
			}
		}
		if stop {
			break
		}
		if p.removeBones(drop) > 0 {
			if !opt.Free {
				joints = p.topology()
			}
			it, lambda = 0, 1
			prev = math.Inf(1)
			opt.Progress.Report(fmt.Sprintf("rigging (%d bones)", p.B), 0, opt.Iterations)
			continue
		}
		lambda *= 1.5
		it++
		opt.Progress.Report(fmt.Sprintf("rigging (%d bones)", p.B), it, opt.Iterations)
		if opt.Tolerance > 0 && it >= 3 && math.Abs(prev-e) <= opt.Tolerance*prev {
			break
		}
		prev = e
	}
	return joints, attempt{initial: nb, full: full, byLevel: pr.byLevel}, nil
}

// initialBones runs the initialization (§4): LBG clustering into
// target clusters, then one bone per connected patch. With opt.Bones set,
// while the patches fall short of Bones and the clustering did reach its
// target (the motion may have more parts), it asks again for half as many
// more, up to twice. It returns every vertex's bone, the bone count and
// whether the clustering reached its target.
func (p *problem) initialBones(ctx context.Context, opt Options, target int, progress func(done, total int)) ([]int32, int, bool, error) {
	minSize := max(1, int(math.Ceil(0.001*float64(p.N))))
	for try := 0; ; try++ {
		label, nc, err := p.clusterLBG(ctx, target, progress)
		if err != nil {
			return nil, 0, false, err
		}
		bone, nb := p.patches(label, nc, minSize)
		full := nc >= target && target < p.N/minSize
		if nb >= opt.Bones || !full || try == 2 {
			return bone, nb, full, nil
		}
		target += (target + 1) / 2
	}
}

// keepAtLeast clears marks of drop so that at least keep bones stay: the
// marked bones of least mass (Eq. 11's Σ_i w_ij²) go first. A bone that
// moves no vertex at all always goes: it is no bone of the rig.
func (p *problem) keepAtLeast(drop []bool, keep int) {
	mass := p.BoneMass()
	var marked []int
	empty := 0
	for j, d := range drop {
		switch {
		case d && mass[j] == 0:
			empty++
		case d:
			marked = append(marked, j)
		}
	}
	allowed := max(0, p.B-empty-keep)
	if len(marked) <= allowed {
		return
	}
	sort.SliceStable(marked, func(a, b int) bool { return mass[marked[a]] < mass[marked[b]] })
	for _, j := range marked[allowed:] {
		drop[j] = false
	}
}

// rigidMotion reports whether one rigid transform per frame reproduces the
// whole animation to within 1e-6 of the unit sphere (RMS): a static or
// rigidly moving input, which needs one bone. It stops at the first
// frames whose error alone exceeds that, so a deforming input (nearly
// every input) costs a frame or two, not a pass over every frame; the
// frames are visited spread out (every 16th, then every 8th, …) as
// animations often start in a still pose.
func (p *problem) rigidMotion() bool {
	limit := 1e-12 * float64(p.N) * float64(p.F)
	var e float64
	var fr []linalg.Vec3
	for _, f := range spreadOrder(p.F) {
		fr = p.FrameInto(fr, f)
		var fit linalg.RigidFit
		for i, u := range p.Rest {
			fit.Add(u, fr[i], 1)
		}
		m := fit.Solve()
		for i, u := range p.Rest {
			e += m.Apply(u).Sub(fr[i]).Norm2()
		}
		if e >= limit {
			return false
		}
	}
	return true
}

// spreadOrder returns 0…n-1 coarse to fine: the multiples of 16, then
// of 8 not yet visited, and so on down to every frame.
func spreadOrder(n int) []int {
	order := make([]int, 0, n)
	seen := make([]bool, n)
	for step := 16; step >= 1; step /= 2 {
		for f := 0; f < n; f += step {
			if !seen[f] {
				seen[f] = true
				order = append(order, f)
			}
		}
	}
	return order
}

// oneBone rigs everything to a single root joint at the rest centroid.
func (p *problem) oneBone(s *seq.Sequence, us method.UnitSphere, full *skinning.Model, w *weld.Result, opt Options) (*rig.Rig, error) {
	if w != nil { // no topology needed: rig the input's vertices
		p = &problem{full}
	}
	label := make([]int32, p.N)
	p.B = 1
	p.M = p.FitClusters(label, 1)
	p.SetRigidWeights(label)
	if opt.Free {
		return p.FreeRig(s, us)
	}
	h := skinning.Hierarchy{Order: []int32{0}, Parent: []int32{-1}, Head: []linalg.Vec3{mesh.Centroid(p.Rest)}, Prior: []linalg.Vec3{mesh.Centroid(p.Rest)}}
	p.Constrain(h)
	r := p.SkeletalRig(h, s)
	us.RigFrom(r, s.Rest)
	return r, r.Validate()
}

func anyTrue(b []bool) bool {
	for _, x := range b {
		if x {
			return true
		}
	}
	return false
}
