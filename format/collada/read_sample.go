package collada

import (
	"context"
	"fmt"
	"math"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/par"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// poser evaluates the scene's nodes for one clip: static nodes keep their
// stored transform, animated ones take their channels' values.
type poser struct {
	sc     *sceneData
	static []linalg.Affine  // local transform of each node as stored
	anim   [][]*animChannel // channels of each node in this clip
}

func newPoser(sc *sceneData, chans []*animChannel) *poser {
	p := &poser{sc: sc, static: make([]linalg.Affine, len(sc.nodes)), anim: make([][]*animChannel, len(sc.nodes))}
	for k, n := range sc.nodes {
		p.static[k] = local(n.xf, func(i int) []float64 { return n.xf[i].val })
	}
	for _, c := range chans {
		p.anim[c.node] = append(p.anim[c.node], c)
	}
	return p
}

// globals writes every node's global transform at time t into g.
func (p *poser) globals(t float64, g []linalg.Affine) {
	var buf [16]float64
	for k, n := range p.sc.nodes {
		l := p.static[k]
		if len(p.anim[k]) > 0 {
			l = local(n.xf, func(i int) []float64 {
				v := buf[:len(n.xf[i].val)]
				copy(v, n.xf[i].val)
				for _, c := range p.anim[k] {
					if c.xf == i {
						c.at(t, v[c.off:c.off+c.n])
					}
				}
				return v
			})
		}
		if n.parent >= 0 {
			l = g[n.parent].Mul(l)
		}
		g[k] = l
	}
}

// sampled is what sampling gives: the sequence the file plays and the
// rig's clips.
type sampled struct {
	seq   *seq.Sequence
	clips []rig.Clip
}

// sample evaluates the planned frames of every clip. Each joint's
// skinning matrix is its node's global transform times its inverse bind
// matrix (the specification's formula; the bind shape matrix is in the
// rest mesh already); the sequence is the rest mesh skinned by them with
// every influence the file gives, and the rig's clip is their rotations
// and translations (rig.ClipFromSkinMatrices), which must reproduce them
// (checkRigid). Frames are evaluated in parallel, the same every time, and
// sampling stops with ctx's error when it is done.
func sample(ctx context.Context, p *parts, clips []clipDef, tms []timing) (*sampled, error) {
	sc, sk, s, rest := p.scene, p.skel, p.skin, p.rig.Mesh
	n, nj := len(rest.Verts), sk.skel.Len()
	total := 0
	for _, tm := range tms {
		total += tm.hi - tm.lo
	}
	out := &sampled{seq: seq.New(rest)}
	out.seq.Frames = make([]linalg.Vec3f, 0, total*n)
	out.seq.FrameNames = make([]string, 0, total)
	boxes := jointBoxes(rest.Verts, p.rig.Skin, nj)
	tol := 1e-5 * (mesh.Diagonal(rest.Verts) + radius(rest.Verts))
	for ci := range clips {
		c, tm := &clips[ci], &tms[ci]
		m := tm.hi - tm.lo
		ps := newPoser(sc, c.chans)
		mats := make([]linalg.Affine, m*nj)
		at := out.seq.F()
		frames := out.seq.Frames[at*n : (at+m)*n]
		par.For(m, 1, func(lo, hi int) {
			g := make([]linalg.Affine, len(sc.nodes))
			for f := lo; f < hi && ctx.Err() == nil; f++ {
				ps.globals(tm.at(tm.lo+f), g)
				fm := mats[f*nj : (f+1)*nj]
				for j, k := range sk.node {
					fm[j] = linalg.IdentityAffine()
					if k >= 0 {
						fm[j] = g[k].Mul(sk.ibm[j])
					}
				}
				verts := frames[f*n : (f+1)*n]
				for i, q := range rest.Verts {
					var v linalg.Vec3
					for r := s.start[i]; r < s.start[i+1]; r++ {
						v = v.Add(fm[sk.slot[s.joint[r]]].Apply(q).Scale(s.weight[r]))
					}
					verts[i] = v.Vec3f()
				}
			}
		})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out.seq.StartClip(c.name, tm.fps)
		names := make([]string, m)
		for f := range names {
			names[f] = fmt.Sprintf("%s@%.4gs", c.name, tm.at(tm.lo+f))
		}
		// frames lies past Frames' length: AddFrames checks them and
		// appends them onto themselves.
		if err := out.seq.AddFrames(frames, names); err != nil {
			return nil, c.el.errorf("clip %q: %w", c.name, err)
		}
		cl := rig.ClipFromSkinMatrices(&sk.skel, c.name, tm.fps, m, mats)
		if err := checkRigid(&sk.skel, &cl, mats, boxes, tol, tm); err != nil {
			// Joints that scale along their axes (as --stretch writes
			// them) keep their scale tracks; a shear still fails.
			scaled, ok := rig.ClipFromScaledSkinMatrices(&sk.skel, c.name, tm.fps, m, mats, scaleTol)
			if !ok || checkRigid(&sk.skel, &scaled, mats, boxes, tol, tm) != nil {
				return nil, c.el.errorf("%w", err)
			}
			cl = scaled
		}
		out.clips = append(out.clips, cl)
	}
	return out, nil
}

// box is an axis-aligned bounding box; empty when lo > hi.
type box struct{ lo, hi linalg.Vec3 }

// jointBoxes returns the bounding box of the rest vertices each joint
// moves (empty for a joint that moves none).
func jointBoxes(verts []linalg.Vec3, skin rig.Skin, nj int) []box {
	inf := math.Inf(1)
	out := make([]box, nj)
	for j := range out {
		out[j] = box{linalg.Vec3{inf, inf, inf}, linalg.Vec3{-inf, -inf, -inf}}
	}
	for i, in := range skin {
		for k, w := range in.Weight {
			if w > 0 {
				b := &out[in.Joint[k]]
				b.lo, b.hi = b.lo.Min(verts[i]), b.hi.Max(verts[i])
			}
		}
	}
	return out
}

// radius is the largest distance of a vertex from the origin: text
// rounds coordinates relative to their size, not the model's.
func radius(verts []linalg.Vec3) float64 {
	r := 0.0
	for _, v := range verts {
		r = math.Max(r, v.Norm())
	}
	return r
}

// scaleTol is how far from a rotation times a per-axis scale (text
// rounding of the file's matrices composed down the hierarchy) a joint's
// local linear part may be for its scale to be read as scale tracks.
const scaleTol = 1e-5

// checkRigid verifies that the rig's clip moves every vertex as the file's
// skinning matrices do: for each joint and frame, the rig's matrix and
// the file's agree within tol on the box of the vertices the joint moves
// (the farthest disagreement of two affine maps over a box is at a
// corner). They differ where the file shears a joint, or scales it other
// than along its own axes, which a rig cannot hold: that is refused,
// naming the joint and frame, rather than played back wrong.
func checkRigid(s *rig.Skeleton, cl *rig.Clip, mats []linalg.Affine, boxes []box, tol float64, tm *timing) error {
	nj := s.Len()
	var pose, got []linalg.Affine
	for f := 0; f < cl.Frames; f++ {
		pose = s.Pose(cl, f, pose)
		got = s.SkinMatrices(pose, got)
		for j, b := range boxes {
			if b.lo[0] > b.hi[0] {
				continue
			}
			want := mats[f*nj+j]
			worst := 0.0
			for c := 0; c < 8; c++ {
				p := linalg.Vec3{sel(c&1 != 0, b.hi[0], b.lo[0]), sel(c&2 != 0, b.hi[1], b.lo[1]), sel(c&4 != 0, b.hi[2], b.lo[2])}
				worst = math.Max(worst, got[j].Apply(p).Dist(want.Apply(p)))
			}
			if !(worst <= tol) {
				return fmt.Errorf("clip %q, frame %d (%.4g s): joint %q shears the mesh (its vertices move up to %.3g from where a rotation, translation and scale along its axes put them): %w (meshrig's rigs rotate, translate and scale joints along their axes)",
					cl.Name, f+1, tm.at(tm.lo+f), s.Joints[j].Name, worst, format.ErrUnsupported)
			}
		}
	}
	return nil
}

func sel(b bool, x, y float64) float64 {
	if b {
		return x
	}
	return y
}
