package ledeng

import (
	"context"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// Name is the method's name in reports.
const Name = "le-deng-2014"

// maxRestarts bounds the rigging iterations over all pruning restarts, so
// a model that sheds bones one at a time still finishes.
const maxTotalIterations = 400

// finalIterations alternates exact skeletal transform fits and weight
// updates after the rigging loop.
const finalIterations = 10

// pruneFloor is the RMS error, in unit-sphere units, under which removing
// a bone counts as free.
const pruneFloor = 5e-4

// Rig extracts a skeletal rig from s. The result has one clip per clip of
// s, a skeleton rooted near the rest pose's centroid, at most
// opt.MaxInfluences weights per vertex, and rigid bones (unless opt.Free,
// which returns the free form of rig.NewFree).
func Rig(ctx context.Context, s *seq.Sequence, opt Options) (*rig.Rig, error) {
	opt = opt.withDefaults()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	us := method.NewUnitSphere(s.Rest.Verts)
	p := &problem{
		n: s.N(), f: s.F(),
		rest:   us.To(nil, s.Rest.Verts),
		frames: us.To(nil, s.Frames),
		top:    mesh.NewTopology(s.Rest),
	}
	if p.rigidMotion() {
		opt.Notes.Add("the animation moves as one rigid body (or not at all): one bone")
		return p.oneBone(s, us, opt)
	}

	frames := p.sampleFrames(opt.SampleFrames)
	q := p // the problem the skeleton is found on: p, or a subset of its frames
	if len(frames) < p.f {
		q = p.subset(frames)
	}
	joints, err := q.findBones(ctx, opt)
	if err != nil {
		return nil, err
	}
	lap := p.rigidness()
	sweeps := smoothingSweeps(p.n)
	if opt.Free {
		q.carryTo(p, joints, 0)
		ws := &weightSolver{p: p, k: opt.MaxInfluences, omega: opt.Smoothness, lap: lap}
		for it := 0; it < 2; it++ {
			ws.update(sweeps)
			p.updateTransforms(0, nil)
		}
		return p.freeRig(s, us)
	}
	// Output: the joint-rotation hierarchy, refined so the rig as exported
	// fits: exact skeletal rotations, joint positions, then weights — on
	// the sampled frames, then every frame's transforms under the result.
	h := q.root(joints)
	q.constrain(h)
	qs := &weightSolver{p: q, k: opt.MaxInfluences, omega: opt.Smoothness, lap: lap}
	for it := 0; it < finalIterations; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		q.fitHierarchy(h, 2)
		q.fitJoints(&h)
		qs.update(sweeps)
		opt.Progress.Report("skeletal fit", it+1, finalIterations)
	}
	if q != p {
		q.carryTo(p, joints, math.Pow(1.5, float64(opt.Iterations)))
		p.constrain(h)
		p.fitHierarchy(h, 3)
		p.fitJoints(&h)
		ws := &weightSolver{p: p, k: opt.MaxInfluences, omega: opt.Smoothness, lap: lap}
		ws.update(sweeps)
	}
	p.fitHierarchy(h, 3)
	r := p.skeletalRig(h, s)
	us.RigFrom(r, s.Rest)
	return r, r.Validate()
}

// carryTo moves the bones and weights found on q (a subset of p's frames)
// to p, fitting every frame's transforms from scratch: a weighted rigid fit
// per bone, then two transform updates with joint weight lambda.
func (q *problem) carryTo(p *problem, joints []joint, lambda float64) {
	if q == p {
		return
	}
	p.b, p.wb, p.ww = q.b, q.wb, q.ww
	p.m = p.fitWeighted()
	for it := 0; it < 2; it++ {
		p.updateTransforms(lambda, joints)
	}
}

// smoothingSweeps is the number of local-solver passes per weights update:
// 0.05% of the vertex count (§6.1), at least 1 and at most 20.
func smoothingSweeps(n int) int {
	return min(20, max(1, int(math.Round(0.0005*float64(n)))))
}

// findBones runs §4–§6 on p: initialization, skinning decomposition,
// topology and the iterative rigging with pruning. It leaves p's bones,
// weights and transforms set and returns the skeleton's joints (nil with
// opt.Free).
func (p *problem) findBones(ctx context.Context, opt Options) ([]joint, error) {
	// §4 Initialization.
	report := func(stage string) func(done, total int) {
		return func(done, total int) { opt.Progress.Report(stage, done, total) }
	}
	label, nc, err := p.clusterLBG(ctx, opt.InitBones, report("clustering"))
	if err != nil {
		return nil, err
	}
	minSize := max(1, int(math.Ceil(0.001*float64(p.n))))
	bone, nb := p.patches(label, nc, minSize)
	p.b = nb
	p.m = p.fitClusters(bone, nb)
	p.setRigidWeights(bone)

	// §5 Skinning decomposition without skeleton: 10 iterations, one more
	// influence per vertex every 3.
	ws := &weightSolver{p: p}
	for it := 0; it < 10; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ws.k = min(1+it/3, opt.MaxInfluences)
		ws.update(1)
		p.updateTransforms(0, nil)
		opt.Progress.Report("decomposition", it+1, 10)
	}
	var joints []joint
	if !opt.Free {
		joints = p.topology()
	}

	// §6 Iterative rigging.
	ws.k = opt.MaxInfluences
	ws.omega = opt.Smoothness
	ws.lap = p.rigidness()
	sweeps := smoothingSweeps(p.n)
	lambda := 1.0
	prev := math.Inf(1)
	// best is the lowest error seen with more bones: pruning by cost may
	// raise the error at most opt.Prune above it, in total.
	best := math.Inf(1)
	for it, total := 0, 0; it < opt.Iterations && total < maxTotalIterations; total++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ws.update(sweeps)
		var e float64
		if !opt.Free {
			p.updateJoints(joints)
			e = p.updateTransforms(lambda, joints)
		} else {
			e = p.updateTransforms(0, nil)
		}
		drop := p.redundant()
		if !opt.Free {
			for j, d := range p.stiffJoints(joints) {
				drop[j] = drop[j] || d
			}
		}
		over := opt.MaxBones > 0 && p.b > opt.MaxBones
		// Costs are weighed at one point of every restart (it = 2, so λ is
		// the same each time and errors compare).
		if !anyTrue(drop) && p.b > 1 && (over || (opt.Prune > 0 && it == 2)) {
			// The bone the others can best do without goes when over the
			// cap, or when losing it costs less than opt.Prune of the error.
			cost := ws.removalCost()
			j := cheapest(cost)
			if it == 2 {
				best = math.Min(best, e)
			}
			// Below an RMS of pruneFloor (unit-sphere units, about 0.025%
			// of d) every fit is as good as exact.
			allowed := math.Max((1+opt.Prune)*best, float64(p.f*p.n)*pruneFloor*pruneFloor)
			if over || (it == 2 && e+float64(p.f)*cost[j] < allowed) {
				drop[j] = true
			}
		}
		if p.removeBones(drop) > 0 {
			if !opt.Free {
				joints = p.topology()
			}
			it, lambda = 0, 1
			prev = math.Inf(1)
			opt.Progress.Report(fmt.Sprintf("rigging (%d bones)", p.b), 0, opt.Iterations)
			continue
		}
		lambda *= 1.5
		it++
		opt.Progress.Report(fmt.Sprintf("rigging (%d bones)", p.b), it, opt.Iterations)
		if opt.Tolerance > 0 && it >= 3 && math.Abs(prev-e) <= opt.Tolerance*prev {
			break
		}
		prev = e
	}
	return joints, nil
}

// rigidMotion reports whether one rigid transform per frame reproduces the
// whole animation to within 1e-6 of the unit sphere (RMS): a static or
// rigidly moving input, which needs one bone.
func (p *problem) rigidMotion() bool {
	label := make([]int32, p.n)
	m := p.fitClusters(label, 1)
	var e float64
	for f := 0; f < p.f; f++ {
		fr := p.frame(f)
		for i, u := range p.rest {
			e += m[f].Apply(u).Sub(fr[i]).Norm2()
		}
	}
	return math.Sqrt(e/float64(p.n*p.f)) < 1e-6
}

// oneBone rigs everything to a single root joint at the rest centroid.
func (p *problem) oneBone(s *seq.Sequence, us method.UnitSphere, opt Options) (*rig.Rig, error) {
	label := make([]int32, p.n)
	p.b = 1
	p.m = p.fitClusters(label, 1)
	p.setRigidWeights(label)
	if opt.Free {
		return p.freeRig(s, us)
	}
	h := hierarchy{order: []int32{0}, parent: []int32{-1}, head: []linalg.Vec3{mesh.Centroid(p.rest)}}
	p.constrain(h)
	r := p.skeletalRig(h, s)
	us.RigFrom(r, s.Rest)
	return r, r.Validate()
}

// freeRig exports the bone transforms as the free form, in model units.
func (p *problem) freeRig(s *seq.Sequence, us method.UnitSphere) (*rig.Rig, error) {
	id := make([]rig.JointID, p.b)
	for j := range id {
		id[j] = rig.JointID(j)
	}
	skin := p.skin(id)
	var out *rig.Rig
	for _, c := range s.Clips {
		tr := make([]linalg.Affine, 0, c.Len()*p.b)
		for f := c.Start; f < c.End; f++ {
			for j := 0; j < p.b; j++ {
				// x' = s(x−c): M(x) = M'(s(x−c))/s + c = R x + (T'/s + c − R c).
				m := p.m[f*p.b+j]
				tr = append(tr, linalg.Affine{M: m.M, T: m.T.Scale(1 / us.Scale).Add(us.Center).Sub(m.M.MulVec(us.Center))})
			}
		}
		r, err := rig.NewFree(s.Rest, skin, p.b, c.Name, c.FPS, c.Len(), tr)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = r
		} else {
			out.Clips = append(out.Clips, r.Clips[0])
		}
	}
	return out, out.Validate()
}

func anyTrue(b []bool) bool {
	for _, x := range b {
		if x {
			return true
		}
	}
	return false
}
