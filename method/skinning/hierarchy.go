package skinning

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/spantree"
)

// Hierarchy is a skeleton rooted for export: bones in breadth-first
// order from the root bone, each with its parent and head (the rest
// position of the joint it shares with its parent).
type Hierarchy struct {
	Order  []int32       // bones, root first
	Parent []int32       // per bone, -1 for the root
	Head   []linalg.Vec3 // per bone
	// Prior is where the method put each head; the skeletal refinement
	// (FitJoints) moves a head only as far as the motion demands.
	Prior []linalg.Vec3
}

// Joint is an edge of a skeleton tree: bones A and B share a joint whose
// rest position is Pos.
type Joint struct {
	A, B int32
	Pos  linalg.Vec3
}

// Root orients S from the Joint nearest the rest centroid (§5). Of that
// Joint's two bones the heavier becomes the root bone; both have their
// head at the root Joint.
func (p *Model) Root(joints []Joint) Hierarchy {
	h := Hierarchy{Parent: make([]int32, p.B), Head: make([]linalg.Vec3, p.B)}
	rootBone := int32(0)
	var c linalg.Vec3
	for _, u := range p.Rest {
		c = c.Add(u)
	}
	c = c.Scale(1 / float64(p.N))
	rj := rootJoint(joints, c)
	mass := p.BoneMass()
	if rj >= 0 {
		a, b := joints[rj].A, joints[rj].B
		rootBone = a
		if mass[b] > mass[a] {
			rootBone = b
		}
		h.Head[rootBone] = joints[rj].Pos
	} else {
		h.Head[rootBone] = p.BoneCentroids()[rootBone]
	}
	edges := make([]spantree.Edge, len(joints))
	at := map[[2]int32]linalg.Vec3{}
	for k, jt := range joints {
		edges[k] = spantree.Edge{A: int(jt.A), B: int(jt.B)}
		at[[2]int32{jt.A, jt.B}] = jt.Pos
		at[[2]int32{jt.B, jt.A}] = jt.Pos
	}
	parent, order := spantree.Root(p.B, edges, int(rootBone))
	for _, b := range order {
		h.Order = append(h.Order, int32(b))
		h.Parent[b] = int32(parent[b])
		if parent[b] >= 0 {
			h.Head[b] = at[[2]int32{int32(parent[b]), int32(b)}]
		}
	}
	h.Prior = append([]linalg.Vec3(nil), h.Head...)
	return h
}

// rootJoint returns the index of the Joint closest to the rest pose's
// centroid (§5), or -1 when S has no Joint.
func rootJoint(joints []Joint, centroid linalg.Vec3) int {
	best, bd := -1, math.Inf(1)
	for k, jt := range joints {
		if d := jt.Pos.Dist(centroid); d < bd {
			best, bd = k, d
		}
	}
	return best
}

// Constrain replaces every bone transform by its skeletal counterpart:
// the bone keeps its rotation, but its head goes where the parent's
// rigid bone puts it (the root's head goes where the root bone's
// transform takes it). After this the transforms are exactly those a
// Joint-rotation Hierarchy can play back.
func (p *Model) Constrain(h Hierarchy) {
	pos := make([]linalg.Vec3, p.B)
	for f := 0; f < p.F; f++ {
		mf := p.M[f*p.B : (f+1)*p.B]
		for _, b := range h.Order {
			if pb := h.Parent[b]; pb < 0 {
				pos[b] = mf[b].Apply(h.Head[b])
			} else {
				pos[b] = pos[pb].Add(mf[pb].M.MulVec(h.Head[b].Sub(h.Head[pb])))
			}
			mf[b] = linalg.Affine{M: mf[b].M, T: pos[b].Sub(mf[b].M.MulVec(h.Head[b]))}
		}
	}
}
