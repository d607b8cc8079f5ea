package fbx

import (
	"math"

	"github.com/meshrig/meshrig/linalg"
)

// Cluster is a SubDeformer "Cluster": the control points one joint
// (Link) moves, their weights, and the bind matrices: TransformLink is the
// link's global transform at bind time, Transform the geometry's
// transform relative to it (so TransformLink·Transform is the mesh's
// global transform at bind time, and a vertex v goes to
// G_link(t)·Transform·v).
type Cluster struct {
	Link                     *Object
	Indexes                  []int32
	Weights                  []float64
	Transform, TransformLink linalg.Affine
	// Mode is the link mode: "Normalize" (weights scaled to sum to 1, the
	// default), "Total1" (what is missing of 1 stays with the mesh) or
	// "Additive".
	Mode string
}

// part is one mesh model with its geometry and skin.
type part struct {
	model    int // hierarchy index
	geo      *Geometry
	first    int           // first vertex in the combined mesh
	geom     linalg.Affine // geometric transform
	bind     linalg.Affine // the mesh's global transform at bind time
	clusters []Cluster
}

// readClusters returns the clusters of the Skin deformers on geometry g.
func readClusters(f *File, g *Object, nverts int) ([]Cluster, error) {
	var out []Cluster
	for _, sk := range f.childrenOf(g, "Deformer") {
		if sk.Type != "Skin" {
			continue
		}
		for _, co := range f.childrenOf(sk, "Deformer") {
			if co.Type != "Cluster" {
				continue
			}
			links := f.childrenOf(co, "Model")
			if len(links) == 0 {
				continue // a cluster bound to no joint moves nothing
			}
			if len(links) > 1 {
				return nil, errAt(co.Node.Offset, "cluster %q links %d models", co.Name, len(links))
			}
			c := Cluster{Link: links[0], Mode: "Normalize"}
			if m, ok := stringChild(co.Node, "Mode"); ok {
				c.Mode = m
			}
			var err error
			if co.Node.Child("Indexes") != nil {
				if c.Indexes, err = intArray(co.Node, "Indexes", co); err != nil {
					return nil, err
				}
				if c.Weights, err = floatArray(co.Node, "Weights", co); err != nil {
					return nil, err
				}
			}
			if len(c.Weights) != len(c.Indexes) {
				return nil, errAt(co.Node.Offset, "cluster %q: %d indexes, %d weights", co.Name, len(c.Indexes), len(c.Weights))
			}
			for k, i := range c.Indexes {
				if i < 0 || int(i) >= nverts {
					return nil, errAt(co.Node.Child("Indexes").Offset, "cluster %q: vertex index %d out of range (%d vertices)", co.Name, i, nverts)
				}
				if w := c.Weights[k]; math.IsNaN(w) || math.IsInf(w, 0) {
					return nil, errAt(co.Node.Child("Weights").Offset, "cluster %q: weight %d is not finite", co.Name, k+1)
				}
			}
			if c.Transform, err = matrix(co.Node, "Transform", co); err != nil {
				return nil, err
			}
			if c.TransformLink, err = matrix(co.Node, "TransformLink", co); err != nil {
				return nil, err
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// bindPose returns the BindPose matrices by model ID.
func bindPose(f *File) (map[int64]linalg.Affine, error) {
	out := map[int64]linalg.Affine{}
	for _, o := range f.Objects {
		if o.Class != "Pose" || o.Type != "BindPose" {
			continue
		}
		for _, pn := range o.Node.Children {
			if pn.Name != "PoseNode" {
				continue
			}
			id := pn.Child("Node")
			if id == nil || len(id.Props) != 1 || id.Props[0].Type != 'L' {
				return nil, errAt(pn.Offset, "bind pose %q: pose node without a node ID", o.Name)
			}
			m, err := matrix(pn, "Matrix", o)
			if err != nil {
				return nil, err
			}
			if _, ok := out[id.Props[0].Int]; !ok {
				out[id.Props[0].Int] = m
			}
		}
	}
	return out, nil
}

// deform writes into out the part's vertices posed by the clusters, every
// influence kept: Σ w·G_link·Transform·geom·v over its clusters, with
// the link mode's treatment of weights that do not sum to 1; mesh is the
// mesh model's global transform (for unweighted vertices and Total1's
// remainder).
func (p *part) deform(global []linalg.Affine, h *hierarchy, out []linalg.Vec3, wsum []float64) {
	mesh := global[p.model].Mul(p.geom)
	if len(p.clusters) == 0 {
		for i, v := range p.geo.Verts {
			out[p.first+i] = mesh.Apply(v)
		}
		return
	}
	acc := out[p.first : p.first+len(p.geo.Verts)]
	for i := range acc {
		acc[i] = linalg.Vec3{}
		wsum[i] = 0
	}
	for _, c := range p.clusters {
		m := global[h.index[c.Link.ID]].Mul(c.Transform).Mul(p.geom)
		for k, i := range c.Indexes {
			w := c.Weights[k]
			acc[i] = acc[i].Add(m.Apply(p.geo.Verts[i]).Scale(w))
			wsum[i] += w
		}
	}
	mode := p.clusters[0].Mode
	for i, v := range p.geo.Verts {
		switch {
		case wsum[i] == 0:
			acc[i] = mesh.Apply(v)
		case mode == "Normalize":
			acc[i] = acc[i].Scale(1 / wsum[i])
		case mode == "Total1" && wsum[i] < 1:
			acc[i] = acc[i].Add(mesh.Apply(v).Scale(1 - wsum[i]))
		}
	}
}
