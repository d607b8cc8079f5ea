package ledeng

import (
	"context"
	"math"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/skinning"
)

// twinTube returns the three-bone tube as a problem with its true
// transforms and weights, plus a fourth bone that moves exactly like the
// middle one and owns every other ring of the middle of its segment (x in
// [1.2, 1.6]): it can go at no cost, its vertices' neighbours being on
// its twin.
func twinTube(t *testing.T) *problem {
	r := testrig.Tube(t, 12, linalg.Vec3{})
	s := testrig.Play(t, r)
	const b = 4
	p := &problem{&skinning.Model{N: s.N(), F: s.F(), Rest: s.Rest.Verts, Frames: s.Frames64(), Top: mesh.NewTopology(s.Rest), B: b}}
	p.M = make([]linalg.Affine, p.F*b)
	var pose, skin []linalg.Affine
	for f := 0; f < p.F; f++ {
		pose = r.Skeleton.Pose(&r.Clips[0], f, pose)
		skin = r.Skeleton.SkinMatrices(pose, skin)
		copy(p.M[f*b:], skin)
		p.M[f*b+3] = skin[1]
	}
	p.WB = make([]int32, p.N*skinning.MaxK)
	p.WW = make([]float64, p.N*skinning.MaxK)
	for i, in := range r.Skin {
		for k := 0; k < skinning.MaxK; k++ {
			p.WB[i*skinning.MaxK+k], p.WW[i*skinning.MaxK+k] = int32(in.Joint[k]), in.Weight[k]
			if in.Weight[k] == 0 {
				p.WB[i*skinning.MaxK+k] = -1
			}
		}
		// The tube has 16 vertices per ring, 20 rings per unit.
		if x := p.Rest[i][0]; x >= 1.2 && x <= 1.6 && i < 61*16 && (i/16)%2 == 0 {
			p.WB[i*skinning.MaxK] = 3 // all of the weight is on bone 1 there
		}
	}
	return p
}

func TestRemovalCost(t *testing.T) {
	p := twinTube(t)
	ws := &weightSolver{p: p, k: 4}
	ws.update(1) // builds the systems; exact data keeps the weights
	cost := ws.removalCost()
	t.Logf("costs %.3g", cost)
	for j, c := range cost {
		if c < 0 || math.IsNaN(c) {
			t.Errorf("bone %d: cost %v", j, c)
		}
	}
	if cost[3] > 1e-12 {
		t.Errorf("the twin bone costs %.3g, want 0", cost[3])
	}
	// The others have vertices no other bone reaches (one-rings of theirs
	// alone): removalCost keeps them.
	for _, j := range []int{0, 1, 2} {
		if !math.IsInf(cost[j], 1) {
			t.Errorf("bone %d with a core of its own costs %.3g, want +Inf", j, cost[j])
		}
	}
}

func TestPrunerJudgesAndGoesBack(t *testing.T) {
	p := twinTube(t)
	pr := p.newPruner(0.04, 0)
	n := float64(p.F * p.N)
	if got, want := pr.floor, n*exactRMS*exactRMS; got != want {
		t.Fatalf("floor %v, want %v (exactRMS)", got, want)
	}
	big := 1e3 * pr.floor
	if pr.judge(p, big, nil) != keepOn {
		t.Fatal("the first state must be accepted")
	}
	saved := p.B
	// One bone fewer, the error 3% higher: within 4% per bone, kept.
	p.B--
	if pr.judge(p, 1.03*big, nil) != keepOn || pr.good.b != saved-1 {
		t.Fatal("an error within the allowance was refused")
	}
	saved = p.B
	// The reference is now the state kept: one more bone at +5% is past
	// it, two at +5% in all (2.5% per bone) are within it again.
	p.B--
	if pr.judge(p, 1.03*1.05*big, nil) != keepOn || pr.good.b != saved || pr.fails != 1 {
		t.Fatalf("+5%% for one bone: kept %d bones, %d fails", pr.good.b, pr.fails)
	}
	p.B--
	if pr.judge(p, 1.03*1.05*big, nil) != keepOn || pr.good.b != saved-2 || pr.fails != 0 {
		t.Fatalf("+5%% for two bones: kept %d bones, %d fails", pr.good.b, pr.fails)
	}
	saved = p.B
	// Pruning goes on: the state changes (here its transforms), then
	// leaves the allowance.
	kept := len(p.M)
	p.M = p.M[:p.F]
	for k := 0; k < patience; k++ {
		if pr.judge(p, 2*big, nil) != keepOn {
			t.Fatalf("gave up after %d judgements past the allowance, patience is %d", k+1, patience)
		}
	}
	if pr.judge(p, 2*big, nil) != stopNow {
		t.Fatal("still pruning past the allowance")
	}
	if p.B != saved || len(p.M) != kept {
		t.Errorf("rolled back to %d bones (%d transforms), want %d (%d)", p.B, len(p.M), saved, kept)
	}
	// Above the exact fit, a bone saving less than boneWorth per vertex
	// and frame goes whatever the relative rise; one saving more stays.
	q := twinTube(t)
	pr = q.newPruner(0.04, 0)
	low := 2 * pr.floor // 0.04·low is under boneWorth·n
	pr.judge(q, low, nil)
	q.B--
	if pr.judge(q, low+1.1*n*boneWorth, nil) != keepOn || pr.fails != 1 {
		t.Error("a bone saving more than boneWorth was not missed")
	}
	if pr.judge(q, low+0.9*n*boneWorth, nil) != keepOn || pr.good.b != q.B || pr.fails != 0 {
		t.Error("a bone saving less than boneWorth was kept")
	}
}

func TestPickBatch(t *testing.T) {
	p := &problem{&skinning.Model{N: 10, F: 1, B: 16}}
	pr := &pruner{rel: 0.2, floor: 10, goodErr: 1, hasGood: true, good: snapshot{b: 16}}
	cost := make([]float64, 16)
	for j := range cost {
		cost[j] = 0.1 * float64(16-j) // bone 15 cheapest
	}
	cost[3] = math.Inf(1)
	// A chain: 15–14–13…; picking 15 blocks 14.
	var joints []skinning.Joint
	for j := 0; j < 15; j++ {
		joints = append(joints, skinning.Joint{A: int32(j), B: int32(j + 1)})
	}
	drop := pr.pick(p, cost, joints, 1)
	var got []int
	for j, d := range drop {
		if d {
			got = append(got, j)
		}
	}
	// At most 16/batchShare bones, never two neighbours, cheapest first.
	if len(got) != 16/batchShare || got[len(got)-1] != 15 || got[0] != 13 {
		t.Errorf("picked %v, want [13 15]", got)
	}
	// Past the allowance only the cheapest goes.
	drop = pr.pick(p, cost, joints, 100)
	if n := countTrue(drop); n != 1 || !drop[15] {
		t.Errorf("past the allowance picked %d bones", n)
	}
	// A bone some vertex cannot do without is never picked.
	for j := range cost {
		cost[j] = math.Inf(1)
	}
	if n := countTrue(pr.pick(p, cost, joints, 1)); n != 0 {
		t.Errorf("picked %d bones of infinite cost", n)
	}
}

// TestPrunerBatchGoesBack: a batch of removals that costs more than
// twice its estimate (and more than one bone may) puts the last state
// kept back — a copy, so later edits leave the snapshot as it was — and
// halves the batch; one within twice its estimate is judged as usual.
func TestPrunerBatchGoesBack(t *testing.T) {
	p := twinTube(t)
	pr := p.newPruner(0.04, 0)
	big := 1e3 * pr.floor
	if pr.judge(p, big, nil) != keepOn {
		t.Fatal("the first state must be accepted")
	}
	kept, wb := p.B, p.WB[0]
	per := pr.perBone()
	// Four bones estimated at per/2 in all: twice that is per.
	pr.picked, pr.estCost, pr.pickErr = 4, per/2, big
	p.B -= 4
	p.WB = append([]int32(nil), p.WB...)
	p.WB[0] = 99
	if v := pr.judge(p, big+1.5*per, nil); v != goBack {
		t.Fatalf("a batch at 1.5 times its allowance: verdict %d, want goBack", v)
	}
	if p.B != kept || p.WB[0] != wb || pr.batch != 2 || pr.maxBatch(64) != 2 {
		t.Errorf("after goBack: %d bones (want %d), weight bone %d (want %d), batch %d (want 2)", p.B, kept, p.WB[0], wb, pr.batch)
	}
	p.WB[0] = 99 // removeBones edits in place
	if pr.good.wb[0] != wb {
		t.Error("the snapshot changed with p after goBack")
	}
	p.WB[0] = wb
	// Two bones estimated at per: within twice that, kept as usual.
	pr.picked, pr.estCost, pr.pickErr = 2, per, big
	p.B -= 2
	if v := pr.judge(p, big+1.5*per, nil); v != keepOn || pr.good.b != p.B {
		t.Errorf("a batch within twice its estimate: verdict %d, kept %d bones", v, pr.good.b)
	}
	// A single bone never goes back, whatever it cost.
	pr.picked, pr.estCost, pr.pickErr = 1, 0, pr.goodErr
	p.B--
	if v := pr.judge(p, 10*big, nil); v != keepOn || pr.fails != 1 {
		t.Errorf("one bone past the allowance: verdict %d, %d fails", v, pr.fails)
	}
}

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

// TestRemovalCostNonNegative checks the invariant on a state the rigging
// loop meets: smoothed weights that are not the data term's best, where
// comparing the greedy choice with a better set made costs negative.
func TestRemovalCostNonNegative(t *testing.T) {
	s := testrig.Play(t, testrig.Tube(t, 12, linalg.Vec3{}))
	p := &problem{&skinning.Model{N: s.N(), F: s.F(), Rest: s.Rest.Verts, Frames: s.Frames64(), Top: mesh.NewTopology(s.Rest)}}
	label, nc, err := p.clusterLBG(context.Background(), 12, nil)
	if err != nil {
		t.Fatal(err)
	}
	bone, nb := p.patches(label, nc, 1)
	p.B = nb
	p.M = p.FitClusters(bone, nb)
	p.SetRigidWeights(bone)
	ws := &weightSolver{p: p, k: 4}
	for it := 0; it < 4; it++ {
		ws.update(1)
		p.UpdateTransforms(0, nil)
	}
	ws.omega, ws.lap = 1e-3, p.rigidness()
	ws.update(smoothingSweeps(p.N))
	cost := ws.removalCost()
	t.Logf("%d bones, costs %.3g", p.B, cost)
	finite := 0
	for j, c := range cost {
		if c < 0 || math.IsNaN(c) {
			t.Errorf("bone %d: cost %v", j, c)
		}
		if !math.IsInf(c, 1) {
			finite++
		}
	}
	if finite == 0 {
		t.Error("no bone can go")
	}
}
