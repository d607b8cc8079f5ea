package gltf

import (
	"fmt"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// truth turns a file's skins into a rig.Rig: ground truth for the sampled
// sequence. Its joints are the union of the joint nodes of every skin a
// primitive uses, plus a still synthetic root when they form a forest or
// an unskinned primitive hangs under no joint.
type truth struct {
	skel rig.Skeleton
	node []int           // rig joint → node; -1 for the synthetic root
	ibm  []linalg.Affine // rig joint → inverse bind matrix
	skin rig.Skin
	mesh *mesh.Mesh
	// attached are the unskinned primitives, carried rigidly by a joint:
	// exact only while that joint moves them as their nodes do, which
	// reproduces checks every frame.
	attached []attachment
	tol      float64
	clips    []rig.Clip
}

// attachment is an unskinned primitive's vertex range and its joint.
type attachment struct {
	first, n int
	joint    rig.JointID
}

// ibmTol is how far two skins' inverse bind matrices for one joint may
// differ (float32 rounding of one matrix written twice).
const ibmTol = 1e-6

// newTruth returns nil when no rig can reproduce the file's frames: no
// primitive is skinned, morph weights are animated, two skins disagree on
// a joint's inverse bind matrix, or one is singular.
func newTruth(doc *gltflib.Document, ev *evaluator, clips []clip, rest *mesh.Mesh) *truth {
	for _, c := range clips {
		for _, ch := range c.channels {
			if ch.path == gltflib.TRSWeights {
				return nil
			}
		}
	}
	// Union of the used skins' joints, by node.
	slot := map[int]int{}
	t := &truth{mesh: rest}
	skinSlot := make([][]int, len(doc.Skins))
	for _, p := range ev.prims {
		if p.skin < 0 || skinSlot[p.skin] != nil {
			continue
		}
		joints := doc.Skins[p.skin].Joints
		skinSlot[p.skin] = make([]int, len(joints))
		for k, node := range joints {
			m := ev.ibm[p.skin][k]
			if u, ok := slot[node]; ok {
				if !closeAffine(t.ibm[u], m) {
					return nil
				}
				skinSlot[p.skin][k] = u
				continue
			}
			slot[node] = len(t.node)
			skinSlot[p.skin][k] = len(t.node)
			t.node = append(t.node, node)
			t.ibm = append(t.ibm, m)
		}
	}
	k := len(t.node)
	if k == 0 {
		return nil
	}
	// nearest returns the nearest joint at or above node, or -1.
	nearest := func(node int) int {
		for a := node; a >= 0; a = ev.g.parent[a] {
			if s, ok := slot[a]; ok {
				return s
			}
		}
		return -1
	}
	joints := make([]rig.Joint, k, k+1)
	names := map[string]bool{}
	roots := 0
	for j, node := range t.node {
		parent := rig.NoParent
		if p := ev.g.parent[node]; p >= 0 {
			if s := nearest(p); s >= 0 {
				parent = rig.JointID(s)
			}
		}
		if parent == rig.NoParent {
			roots++
		}
		bind, ok := t.ibm[j].Inverse()
		if !ok || !bind.T.IsFinite() {
			return nil
		}
		// Adding zero turns the −0 of negated translations into 0.
		head := bind.T.Add(linalg.Vec3{})
		joints[j] = rig.Joint{Name: unique(names, doc.Nodes[node].Name, fmt.Sprintf("joint_%d", node)), Parent: parent, Head: head}
	}
	// Unskinned primitives ride on their node's nearest joint, or on a
	// still root.
	type pending struct {
		first, n, slot int
	}
	var loose []pending
	stillRoot := roots > 1
	for _, p := range ev.prims {
		if p.skin >= 0 || p.alias {
			continue
		}
		s := nearest(p.node)
		stillRoot = stillRoot || s < 0
		loose = append(loose, pending{p.first, len(p.pos), s})
	}
	if stillRoot {
		for j := range joints {
			if joints[j].Parent == rig.NoParent {
				joints[j].Parent = rig.JointID(k)
			}
		}
		joints = append(joints, rig.Joint{Name: unique(names, "root", "root"), Parent: rig.NoParent})
		t.node = append(t.node, -1)
		t.ibm = append(t.ibm, linalg.IdentityAffine())
	}
	skel, perm, err := rig.Reorder(joints)
	if err != nil {
		return nil
	}
	t.skel = skel
	// Reorder the per-joint tables to the skeleton's order.
	node, ibm := make([]int, len(t.node)), make([]linalg.Affine, len(t.ibm))
	for old, nw := range perm {
		node[nw], ibm[nw] = t.node[old], t.ibm[old]
	}
	t.node, t.ibm = node, ibm
	t.skin = make(rig.Skin, len(rest.Verts))
	for _, p := range ev.prims {
		if p.skin < 0 || p.alias {
			continue
		}
		for i, in := range p.skinW {
			for s := range in.Joint {
				in.Joint[s] = perm[skinSlot[p.skin][in.Joint[s]]]
			}
			t.skin[p.first+i] = in
		}
	}
	for _, l := range loose {
		j := rig.JointID(0) // the still root, first after Reorder
		if l.slot >= 0 {
			j = perm[l.slot]
		}
		for i := l.first; i < l.first+l.n; i++ {
			t.skin[i] = rig.Influence{Joint: [rig.MaxInfluences]rig.JointID{j}, Weight: [rig.MaxInfluences]float64{1}}
		}
		t.attached = append(t.attached, attachment{l.first, l.n, j})
	}
	t.tol = 1e-5 * mesh.Diagonal(rest.Verts)
	return t
}

// unique returns name (or alt when name is empty), suffixed with
// underscores until it is not in names, and records it.
func unique(names map[string]bool, name, alt string) string {
	if name == "" {
		name = alt
	}
	for names[name] {
		name += "_"
	}
	names[name] = true
	return name
}

// closeAffine compares inverse bind matrices entry by entry, relative to
// their size.
func closeAffine(a, b linalg.Affine) bool {
	x, y := a.Mat4(), b.Mat4()
	for i := range x {
		d := x[i] - y[i]
		scale := 1 + max(abs(x[i]), abs(y[i]))
		if abs(d) > ibmTol*scale {
			return false
		}
	}
	return true
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// frameMats writes into out the skinning matrix G_j·IBM_j of every rig
// joint for the nodes' global transforms (the identity for the still
// root).
func (t *truth) frameMats(global []linalg.Affine, out []linalg.Affine) {
	for j, node := range t.node {
		if node < 0 {
			out[j] = linalg.IdentityAffine()
			continue
		}
		out[j] = global[node].Mul(t.ibm[j])
	}
}

// reproduces reports whether the joints carrying unskinned primitives
// move them to where their nodes put them in this frame.
func (t *truth) reproduces(mats []linalg.Affine, verts []linalg.Vec3) bool {
	for _, a := range t.attached {
		m := mats[a.joint]
		for i := a.first; i < a.first+a.n; i++ {
			if m.Apply(t.mesh.Verts[i]).Dist(verts[i]) > t.tol {
				return false
			}
		}
	}
	return true
}

// addClip converts the sampled skinning matrices of one clip of frames
// frames (mats[f*J+j] for frame f, rig joint j).
// Joints that scale (glTF scale channels, as --stretch writes them) keep
// their scale as rig.Clip.Scale when it splits exactly into a rotation
// and per-axis scale; otherwise the nearest rotations are kept, as for
// rigid joints.
func (t *truth) addClip(name string, fps float64, frames int, mats []linalg.Affine) {
	t.clips = append(t.clips, rig.ClipFromSampledSkinMatrices(&t.skel, name, fps, frames, mats, scaleTol))
}

// scaleTol is how far from a rotation (float32 rounding of a node's
// transforms composed down a hierarchy) a joint's matrix may be and still
// count as unscaled.
const scaleTol = 1e-5

func (t *truth) rig() (*rig.Rig, error) {
	r := &rig.Rig{Mesh: t.mesh, Skeleton: t.skel, Skin: t.skin, Clips: t.clips}
	return r, r.Validate()
}
