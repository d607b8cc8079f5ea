package gltf

import (
	"fmt"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/linalg"
)

// evaluator poses the scene's primitives for given node transforms.
type evaluator struct {
	doc    *gltflib.Document
	g      *graph
	prims  []prim
	ibm    [][]linalg.Affine // per skin, per joint
	nverts int
}

func newEvaluator(doc *gltflib.Document, g *graph, prims []prim) (*evaluator, error) {
	ev := &evaluator{doc: doc, g: g, prims: prims, ibm: make([][]linalg.Affine, len(doc.Skins))}
	for s, sk := range doc.Skins {
		if sk == nil {
			return nil, fmt.Errorf("skin %d is null", s)
		}
		for _, j := range sk.Joints {
			if j < 0 || j >= len(doc.Nodes) {
				return nil, fmt.Errorf("skin %d: joint node %d does not exist", s, j)
			}
		}
		m := make([]linalg.Affine, len(sk.Joints))
		for j := range m {
			m[j] = linalg.IdentityAffine()
		}
		if sk.InverseBindMatrices != nil {
			v, nc, err := accessor(doc, *sk.InverseBindMatrices)
			if err != nil {
				return nil, fmt.Errorf("skin %d inverse bind matrices: %w", s, err)
			}
			if nc != 16 || len(v) < 16*len(m) {
				return nil, fmt.Errorf("skin %d: %d inverse bind matrices for %d joints", s, len(v)/max(nc, 1), len(m))
			}
			for j := range m {
				var c [16]float64
				copy(c[:], v[16*j:16*j+16])
				m[j] = linalg.AffineFromMat4(c)
			}
		}
		ev.ibm[s] = m
	}
	for _, p := range prims {
		if !p.alias {
			ev.nverts += len(p.pos)
		}
	}
	return ev, nil
}

// frame evaluates clip c at time t: it writes the posed vertices into out
// and returns every node's global transform.
func (ev *evaluator) frame(c *clip, t float64, out []linalg.Vec3) []linalg.Affine {
	local := append([]trs(nil), ev.g.rest...)
	var weights map[int][]float64
	buf := make([]float64, 4)
	for k := range c.channels {
		ch := &c.channels[k]
		if len(buf) < ch.ncomp {
			buf = make([]float64, ch.ncomp)
		}
		v := buf[:ch.ncomp]
		ch.sample(t, v)
		x := &local[ch.node]
		switch ch.path {
		case gltflib.TRSTranslation:
			x.t, x.matrix = linalg.Vec3{v[0], v[1], v[2]}, nil
		case gltflib.TRSRotation:
			x.r, x.matrix = quat(v), nil
		case gltflib.TRSScale:
			x.s, x.matrix = linalg.Vec3{v[0], v[1], v[2]}, nil
		case gltflib.TRSWeights:
			if weights == nil {
				weights = map[int][]float64{}
			}
			weights[ch.node] = append([]float64(nil), v...)
		}
	}
	global := ev.g.globals(local)
	ev.pose(global, weights, false, out)
	return global
}

// pose writes into out (ev.nverts long) the combined vertices for global
// node transforms and morph weights per node (nil: the defaults). bind
// leaves skinned primitives in their bind shape. Skinned primitives ignore
// their own node's transform, as glTF asks.
func (ev *evaluator) pose(global []linalg.Affine, weights map[int][]float64, bind bool, out []linalg.Vec3) {
	mats := make([][]linalg.Affine, len(ev.doc.Skins))
	for _, p := range ev.prims {
		if p.alias {
			continue
		}
		w := weights[p.node]
		if w == nil {
			w = morphWeights(ev.doc, p.node)
		}
		if p.skin >= 0 && !bind && mats[p.skin] == nil {
			joints := ev.doc.Skins[p.skin].Joints
			mats[p.skin] = make([]linalg.Affine, len(joints))
			for j, node := range joints {
				mats[p.skin][j] = global[node].Mul(ev.ibm[p.skin][j])
			}
		}
		for i, v := range p.pos {
			for k, d := range p.targets {
				if k < len(w) {
					v = v.Add(d[i].Scale(w[k]))
				}
			}
			switch {
			case p.skin < 0:
				v = global[p.node].Apply(v)
			case bind:
			case p.allW != nil:
				m, a := mats[p.skin], p.allW
				var s linalg.Vec3
				for r := a.start[i]; r < a.start[i+1]; r++ {
					s = s.Add(m[a.joint[r]].Apply(v).Scale(a.weight[r]))
				}
				v = s
			default:
				m, in := mats[p.skin], p.skinW[i]
				var s linalg.Vec3
				for k := 0; k < 4; k++ {
					if in.Weight[k] > 0 {
						s = s.Add(m[in.Joint[k]].Apply(v).Scale(in.Weight[k]))
					}
				}
				v = s
			}
			out[p.first+i] = v
		}
	}
}
