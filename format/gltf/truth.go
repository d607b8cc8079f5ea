package gltf

import (
	"fmt"

	gltflib "github.com/qmuntal/gltf"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// truth turns a file's skin into a rig.Rig: ground truth for the sampled
// sequence.
type truth struct {
	skel  rig.Skeleton
	id    []rig.JointID // skin joint k → rig joint
	skin  rig.Skin
	mesh  *mesh.Mesh
	clips []rig.Clip
}

// newTruth returns nil when the file's skin cannot reproduce every frame:
// no skin or more than one, an unskinned primitive, or animated morph
// weights.
func newTruth(doc *gltflib.Document, g *graph, prims []prim, clips []clip, rest *mesh.Mesh) *truth {
	if len(doc.Skins) != 1 {
		return nil
	}
	for _, p := range prims {
		if p.skin != 0 {
			return nil
		}
	}
	for _, c := range clips {
		for _, ch := range c.channels {
			if ch.path == gltflib.TRSWeights {
				return nil
			}
		}
	}
	sk := doc.Skins[0]
	k := len(sk.Joints)
	slot := make(map[int]int, k)
	for j, node := range sk.Joints {
		if _, dup := slot[node]; dup {
			return nil
		}
		slot[node] = j
	}
	ev, err := newEvaluator(doc, g, prims)
	if err != nil {
		return nil
	}
	joints := make([]rig.Joint, k, k+1)
	names := map[string]bool{}
	roots := 0
	for j, node := range sk.Joints {
		parent := rig.NoParent
		for a := g.parent[node]; a >= 0; a = g.parent[a] {
			if s, ok := slot[a]; ok {
				parent = rig.JointID(s)
				break
			}
		}
		if parent == rig.NoParent {
			roots++
		}
		bind, ok := ev.ibm[0][j].Inverse()
		if !ok {
			return nil
		}
		name := doc.Nodes[node].Name
		if name == "" || names[name] {
			name = fmt.Sprintf("joint_%d", j)
		}
		names[name] = true
		joints[j] = rig.Joint{Name: name, Parent: parent, Head: bind.T}
	}
	if roots > 1 {
		// A forest: hang its trees under a still root at the origin.
		name := "root"
		for names[name] {
			name += "_"
		}
		for j := range joints {
			if joints[j].Parent == rig.NoParent {
				joints[j].Parent = rig.JointID(k)
			}
		}
		joints = append(joints, rig.Joint{Name: name, Parent: rig.NoParent})
	}
	skel, perm, err := rig.Reorder(joints)
	if err != nil {
		return nil
	}
	t := &truth{skel: skel, id: perm, mesh: rest}
	for _, p := range prims {
		for _, in := range p.skinW {
			for s := range in.Joint {
				in.Joint[s] = perm[in.Joint[s]]
			}
			t.skin = append(t.skin, in)
		}
	}
	return t
}

// addClip converts the sampled skinning matrices of one clip.
func (t *truth) addClip(name string, fps float64, mats [][]linalg.Affine) {
	n := t.skel.Len()
	flat := make([]linalg.Affine, len(mats)*n)
	for f, m := range mats {
		for j := range flat[f*n : (f+1)*n] {
			flat[f*n+j] = linalg.IdentityAffine() // a synthetic root stays put
		}
		for k, a := range m {
			flat[f*n+int(t.id[k])] = a
		}
	}
	t.clips = append(t.clips, rig.ClipFromSkinMatrices(&t.skel, name, fps, len(mats), flat))
}

func (t *truth) rig() (*rig.Rig, error) {
	r := &rig.Rig{Mesh: t.mesh, Skeleton: t.skel, Skin: t.skin, Clips: t.clips}
	return r, r.Validate()
}
