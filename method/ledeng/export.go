package ledeng

import (
	"fmt"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
	"github.com/meshrig/meshrig/spantree"
)

// hierarchy is the skeleton S rooted for export: bones in breadth-first
// order from the root bone, each with its parent and head (the rest
// position of the joint it shares with its parent).
type hierarchy struct {
	order  []int32       // bones, root first
	parent []int32       // per bone, -1 for the root
	head   []linalg.Vec3 // per bone
	// prior is where §5/§6 put each head (centers of rotation); the
	// skeletal refinement may move a head only as far as the motion
	// demands (see fitJoints).
	prior []linalg.Vec3
}

// root orients S from the joint nearest the rest centroid (§5). Of that
// joint's two bones the heavier becomes the root bone; both have their
// head at the root joint.
func (p *problem) root(joints []joint) hierarchy {
	h := hierarchy{parent: make([]int32, p.b), head: make([]linalg.Vec3, p.b)}
	rootBone := int32(0)
	var c linalg.Vec3
	for _, u := range p.rest {
		c = c.Add(u)
	}
	c = c.Scale(1 / float64(p.n))
	rj := rootJoint(joints, c)
	mass := p.boneMass()
	if rj >= 0 {
		a, b := joints[rj].a, joints[rj].b
		rootBone = a
		if mass[b] > mass[a] {
			rootBone = b
		}
		h.head[rootBone] = joints[rj].pos
	} else {
		h.head[rootBone] = p.boneCentroids()[rootBone]
	}
	edges := make([]spantree.Edge, len(joints))
	at := map[[2]int32]linalg.Vec3{}
	for k, jt := range joints {
		edges[k] = spantree.Edge{A: int(jt.a), B: int(jt.b)}
		at[[2]int32{jt.a, jt.b}] = jt.pos
		at[[2]int32{jt.b, jt.a}] = jt.pos
	}
	parent, order := spantree.Root(p.b, edges, int(rootBone))
	for _, b := range order {
		h.order = append(h.order, int32(b))
		h.parent[b] = int32(parent[b])
		if parent[b] >= 0 {
			h.head[b] = at[[2]int32{int32(parent[b]), int32(b)}]
		}
	}
	h.prior = append([]linalg.Vec3(nil), h.head...)
	return h
}

// constrain replaces every bone transform by its skeletal counterpart:
// the bone keeps its rotation, but its head goes where the parent's
// rigid bone puts it (the root's head goes where the root bone's
// transform takes it). After this the transforms are exactly those a
// joint-rotation hierarchy can play back.
func (p *problem) constrain(h hierarchy) {
	pos := make([]linalg.Vec3, p.b)
	for f := 0; f < p.f; f++ {
		mf := p.m[f*p.b : (f+1)*p.b]
		for _, b := range h.order {
			if pb := h.parent[b]; pb < 0 {
				pos[b] = mf[b].Apply(h.head[b])
			} else {
				pos[b] = pos[pb].Add(mf[pb].M.MulVec(h.head[b].Sub(h.head[pb])))
			}
			mf[b] = linalg.Affine{M: mf[b].M, T: pos[b].Sub(mf[b].M.MulVec(h.head[b]))}
		}
	}
}

// skeletalRig builds the exported rig in unit-sphere units from the
// constrained transforms: joint k is bone h.order[k].
func (p *problem) skeletalRig(h hierarchy, s *seq.Sequence) *rig.Rig {
	id := make([]rig.JointID, p.b)
	sk := rig.Skeleton{Joints: make([]rig.Joint, len(h.order))}
	for k, b := range h.order {
		id[b] = rig.JointID(k)
		name := fmt.Sprintf("joint_%02d", k)
		parent := rig.NoParent
		if k == 0 {
			name = "root"
		} else {
			parent = id[h.parent[b]]
		}
		sk.Joints[k] = rig.Joint{Name: name, Parent: parent, Head: h.head[b]}
	}
	r := &rig.Rig{Skeleton: sk, Skin: p.skin(id)}
	nj := sk.Len()
	mats := make([]linalg.Affine, 0, nj*p.f)
	for f := 0; f < p.f; f++ {
		row := make([]linalg.Affine, nj)
		for b := 0; b < p.b; b++ {
			row[id[b]] = p.m[f*p.b+b]
		}
		mats = append(mats, row...)
	}
	for _, c := range s.Clips {
		cl := rig.ClipFromSkinMatrices(&sk, c.Name, c.FPS, c.Len(), mats[c.Start*nj:c.End*nj])
		cl.MakeRigid(&sk)
		r.Clips = append(r.Clips, cl)
	}
	return r
}

// skin converts the weight slots to a rig.Skin with joint ids id[bone].
func (p *problem) skin(id []rig.JointID) rig.Skin {
	s := make(rig.Skin, p.n)
	for i := range s {
		var in rig.Influence
		for k := 0; k < maxK; k++ {
			if j := p.wb[i*maxK+k]; j >= 0 {
				in.Joint[k] = id[j]
				in.Weight[k] = p.ww[i*maxK+k]
			}
		}
		s[i] = in.Normalized()
	}
	return s
}
