package ledeng

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinning"
)

// Pruning beyond Eq. 11. In the paper the smoothness term empties
// redundant bones and Eq. 11 removes them. Here it rarely fires: the
// weight solve weighs the data term per vertex (weights.go) where the
// paper's literal Eq. 5 divides it by N, so ω is N times weaker; with the
// literal weighting (tried: ω·N) the weights over-smooth (lion-poses
// RMSE% 0.44 → 0.61) and still no bone empties, because a local solver
// cannot dissolve a bone with a rigid core — its inner vertices see only
// it. So the pruner removes the bones the others can best do without
// (removalCost) while the error, weighed at the same point of every
// restart, stays within an allowance; when it leaves the allowance
// patience+1 times running, the last state within it comes back and
// pruning stops. Judging the error after the restart, not the estimate
// before it, and going back rather than stopping at the first excess is
// what keeps the count from hanging on one noisy step. Several cheap bones
// go at once (pick); a batch that cost more than twice its estimate goes
// back and half as many go from then on, so the count does not hang on
// one bad batch either (judge).

// pruneAt is the rigging iteration of every (re)start at which the error
// is judged and bones are picked: λ is the same each time, so errors
// compare, and two transform updates have settled the last removal.
const pruneAt = 2

// exactRMS is the RMS error (unit-sphere units: at most 0.18% of the
// bounding diagonal) under which a fit counts as exact: pruning may always
// go on below it, so exact LBS data keeps only the bones it needs. It sits
// above what the rigging loop reaches on exact data with extra bones
// (0.0015–0.003 on the generated characters) and below the error once a
// true joint is gone (0.004 and up); 0.003 stops the quadruped at 32
// bones, 0.004 leaves the biped 3 short.
const exactRMS = 0.0035

// boneWorth is the mean squared error per vertex and frame (unit-sphere
// units²; RMS 0.0032, about 0.16% of the diagonal) that a bone must save
// to be kept whatever the error: removing bones goes on while each costs
// less, on average since the last state kept. Together with
// Options.Prune (a bone must save that fraction of the error) it is the
// stopping rule of the automatic count: both are properties of the
// motion's error curve at the current count, not of where the
// initialization started. Measured by removing one bone at a time from
// 64 on the shared sequences: articulated motion saves 0.3–1.2e-5 per
// bone down to its true parts, 2–8e-5 below (cat-poses under 26,
// horse-gallop under 24, lion-poses under 24); the elastic cow's curve
// has no knee (1.2e-5 per bone at 43–63 bones, 3e-5 at 24–43, 6e-5 at
// 20–32), so its relative rule (Prune: 4% of its larger error at 30
// bones is 3e-5) decides.
const boneWorth = 5e-6

// patience is how many judgements past the allowance pruning goes on
// before going back: the error after one removal is noisy, and a later
// state is often better.
const patience = 2

// batchShare bounds the bones removed at one restart to B/batchShare.
const batchShare = 8

// snapshot is the rigging state at one judgement.
type snapshot struct {
	b      int
	m      []linalg.Affine
	wb     []int32
	ww     []float64
	joints []skinning.Joint
}

// pruner holds the stopping rule and the last state kept.
type pruner struct {
	rel   float64 // Options.Prune: a bone must save this fraction of the error
	worth float64 // boneWorth as a sum of squares over p's vertices and frames
	floor float64 // pruning always goes on below this error (exactRMS)
	level float64 // and never above this one (Options.Level)

	good    snapshot // the last state within the allowance
	goodErr float64
	hasGood bool
	fails   int  // judgements past the allowance since good
	byLevel bool // the last judgement was past level only (or the first state was)

	// The last pick: how many bones, their estimated cost and the error
	// they were picked at; batch caps the bones of one pick once a batch
	// went back (0: B/batchShare).
	picked   int
	estCost  float64
	pickErr  float64
	batch    int
	goodCost []float64 // removalCost of the last state kept, for a pick after goBack
}

// newPruner sets the stopping rule for p: removing bones goes on while
// the error grows, per bone removed since the last state kept, by less
// than the larger of prune times that state's error and boneWorth (per
// vertex and frame), or stays under an RMS of exactRMS.
func (p *problem) newPruner(prune, level float64) *pruner {
	nf := float64(p.F * p.N)
	pr := &pruner{rel: prune, worth: nf * boneWorth, floor: nf * exactRMS * exactRMS, level: math.Inf(1)}
	if level > 0 {
		lo, hi := mesh.Bounds(p.Rest)
		rms := level / 100 * hi.Dist(lo)
		pr.level = nf * rms * rms
	}
	return pr
}

// allowed is the largest error (a sum of squares) a state of b bones may
// reach and be kept.
func (pr *pruner) allowed(b int) float64 {
	return math.Max(pr.floor, math.Min(pr.level, pr.slope(b)))
}

// slope is the allowance for b bones without level: the error of the last
// state kept plus what each bone removed since may cost.
func (pr *pruner) slope(b int) float64 {
	return pr.goodErr + float64(pr.good.b-b)*pr.perBone()
}

// perBone is what one bone removed since the last state kept may cost.
func (pr *pruner) perBone() float64 {
	per := pr.rel * pr.goodErr
	if pr.goodErr > pr.floor {
		// boneWorth only above the exact fit: on exact data a small true
		// part (a finger) saves less than it, yet its joint is real.
		per = math.Max(per, pr.worth)
	}
	return per
}

// verdict is what judge decides about a state.
type verdict int

const (
	keepOn  verdict = iota // go on pruning from p's state
	goBack                 // p is back at the last state kept: pick again, fewer at once
	stopNow                // p is back at the last state kept: pruning is over
)

// judge weighs the error e of p's current state. A batch whose removal
// cost more than twice its estimate (and more than one bone may) puts
// the saved state (pr.good) back into p with half the batch: goBack.
// Within the allowance it saves the state and returns keepOn. Past it
// patience+1 times running, it puts the saved state back and returns
// stopNow. The first state judged is always saved; when it is above
// level already, pruning is over at once (every removal would be past
// it), with byLevel set.
func (pr *pruner) judge(p *problem, e float64, joints []skinning.Joint) verdict {
	if pr.hasGood && pr.picked > 1 && e-pr.pickErr > math.Max(2*pr.estCost, pr.perBone()) {
		// The bones' costs did not add up — removing one changed what
		// another's vertices could do — and the state is worse than
		// removing them one by one would reach (lion-poses: four bones
		// estimated at 5.6e-6 per vertex and frame cost 3.0e-5; at 28
		// bones 1.63e-4 by the batch, 1.21e-4 one at a time). pick keeps
		// its estimate within half the allowance left, so twice it is
		// the error it allowed for.
		pr.batch = max(1, pr.picked/2)
		pr.picked = 0
		pr.fails = 0
		pr.restore(p)
		return goBack
	}
	pr.picked = 0
	if first := !pr.hasGood; first || e <= pr.allowed(p.B) {
		pr.goodErr = e
		pr.fails = 0
		pr.hasGood = true
		pr.byLevel = false
		pr.good = snapshot{
			b:      p.B,
			m:      append([]linalg.Affine(nil), p.M...),
			wb:     append([]int32(nil), p.WB...),
			ww:     append([]float64(nil), p.WW...),
			joints: append([]skinning.Joint(nil), joints...),
		}
		if first && e > math.Max(pr.floor, pr.level) {
			pr.byLevel = true
			return stopNow
		}
		return keepOn
	}
	pr.fails++
	pr.byLevel = e > pr.level && e <= pr.slope(p.B)
	if pr.fails <= patience {
		return keepOn
	}
	pr.restore(p)
	return stopNow
}

// restore puts a copy of the last state kept back into p (removeBones
// edits p's weights in place; the snapshot must stay as it was).
func (pr *pruner) restore(p *problem) {
	g := pr.good
	p.B = g.b
	p.M = append([]linalg.Affine(nil), g.m...)
	p.WB = append([]int32(nil), g.wb...)
	p.WW = append([]float64(nil), g.ww...)
}

// pick marks the bones to remove at once: the cheapest by cost (from
// removalCost), then the next cheapest while their summed cost stays
// within half of what the allowance leaves above the current error e
// once they are gone, none sharing a joint with an already marked one
// (their costs would not add up), at most maxBatch. A bone of
// infinite cost (some vertex has no other bone) is never marked.
func (pr *pruner) pick(p *problem, cost []float64, joints []skinning.Joint, e float64) []bool {
	drop := make([]bool, p.B)
	order := byCost(cost)
	blocked := make([]bool, p.B)
	var sum float64
	n := 0
	for _, j := range order {
		c := float64(p.F) * cost[j] // removalCost is per frame
		if math.IsInf(c, 1) || blocked[j] {
			continue
		}
		if n > 0 && (sum+c > (pr.allowed(p.B-n-1)-e)/2 || n >= pr.maxBatch(p.B)) {
			break
		}
		drop[j] = true
		sum += c
		n++
		for _, jt := range joints {
			if jt.A == int32(j) {
				blocked[jt.B] = true
			} else if jt.B == int32(j) {
				blocked[jt.A] = true
			}
		}
	}
	pr.picked, pr.estCost, pr.pickErr = n, sum, e
	if pr.fails == 0 {
		pr.goodCost = cost // p is the state kept
	}
	return drop
}

// maxBatch is the most bones one pick removes from b: b/batchShare, or
// less once a batch went back.
func (pr *pruner) maxBatch(b int) int {
	n := max(1, b/batchShare)
	if pr.batch > 0 {
		n = min(n, pr.batch)
	}
	return n
}
