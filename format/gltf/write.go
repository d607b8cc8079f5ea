package gltf

import (
	"fmt"
	"io"
	"math"

	gltflib "github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// Write writes r as a binary glTF 2.0 file (GLB), or with opt.JSON as a
// .gltf JSON file with its buffer embedded as a base64 data: uri (a third
// larger, one file all the same): the rest mesh with normals, a skin with inverse bind matrices over the joint node hierarchy
// (identity rest rotations, translations = rest offsets), and one
// animation per clip with a rotation channel per joint, a translation
// channel on the root, and translation channels on any other joint whose
// offset moves (the free form).
func Write(w io.Writer, r *rig.Rig, opt format.WriteOptions) error {
	if opt.Version != "" && opt.Version != "2.0" {
		return fmt.Errorf("glTF version %q: %w (meshrig writes 2.0)", opt.Version, format.ErrUnsupported)
	}
	if err := r.Validate(); err != nil {
		return err
	}
	doc := gltflib.NewDocument()
	doc.Asset.Generator = "meshrig"
	nj := r.Skeleton.Len()

	// Joint nodes come first: node j is joint j.
	for j, jt := range r.Skeleton.Joints {
		off := r.Skeleton.Offset(rig.JointID(j))
		doc.Nodes = append(doc.Nodes, &gltflib.Node{
			Name:        jt.Name,
			Translation: [3]float64{off[0], off[1], off[2]},
			Rotation:    [4]float64{0, 0, 0, 1},
			Scale:       [3]float64{1, 1, 1},
		})
		if jt.Parent != rig.NoParent {
			p := doc.Nodes[jt.Parent]
			p.Children = append(p.Children, j)
		}
	}
	meshNode := len(doc.Nodes)
	prim, err := writeMesh(doc, r)
	if err != nil {
		return err
	}
	doc.Meshes = []*gltflib.Mesh{{Name: "mesh", Primitives: []*gltflib.Primitive{prim}}}
	ibm := make([][4][4]float32, nj)
	for j, jt := range r.Skeleton.Joints {
		ibm[j] = mat4f(linalg.Translation(jt.Head.Scale(-1)))
	}
	joints := make([]int, nj)
	for j := range joints {
		joints[j] = j
	}
	doc.Skins = []*gltflib.Skin{{
		Name:                "skin",
		InverseBindMatrices: gltflib.Index(modeler.WriteAccessor(doc, gltflib.TargetNone, ibm)),
		Skeleton:            gltflib.Index(0),
		Joints:              joints,
	}}
	doc.Nodes = append(doc.Nodes, &gltflib.Node{
		Name: "mesh", Mesh: gltflib.Index(0), Skin: gltflib.Index(0),
		Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1},
	})
	doc.Scenes = []*gltflib.Scene{{Name: "scene", Nodes: []int{0, meshNode}}}
	doc.Scene = gltflib.Index(0)
	for c := range r.Clips {
		if err := writeClip(doc, &r.Skeleton, &r.Clips[c]); err != nil {
			return err
		}
	}
	enc := gltflib.NewEncoder(w)
	enc.AsBinary = !opt.JSON
	if opt.JSON {
		for _, b := range doc.Buffers {
			b.EmbeddedResource()
		}
	}
	return enc.Encode(doc)
}

// writeMesh adds the rest mesh's accessors and returns its primitive.
func writeMesh(doc *gltflib.Document, r *rig.Rig) (*gltflib.Primitive, error) {
	m := r.Mesh
	n := len(m.Verts)
	pos := make([][3]float32, n)
	for i, v := range m.Verts {
		pos[i] = [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
	}
	nrm := make([][3]float32, n)
	for i, v := range mesh.VertexNormals(m.Verts, m.Tris) {
		nrm[i] = unit32(v)
	}
	var indices any
	if n < 1<<16 {
		idx := make([]uint16, 0, 3*len(m.Tris))
		for _, t := range m.Tris {
			idx = append(idx, uint16(t[0]), uint16(t[1]), uint16(t[2]))
		}
		indices = idx
	} else {
		idx := make([]uint32, 0, 3*len(m.Tris))
		for _, t := range m.Tris {
			idx = append(idx, uint32(t[0]), uint32(t[1]), uint32(t[2]))
		}
		indices = idx
	}
	var joints any
	wts := make([][4]float32, n)
	if r.Skeleton.Len() <= 256 {
		j8 := make([][4]uint8, n)
		for i, in := range r.Skin {
			for k := 0; k < rig.MaxInfluences; k++ {
				if in.Weight[k] > 0 {
					j8[i][k] = uint8(in.Joint[k])
				}
			}
			wts[i] = weights32(in)
		}
		joints = j8
	} else {
		j16 := make([][4]uint16, n)
		for i, in := range r.Skin {
			for k := 0; k < rig.MaxInfluences; k++ {
				if in.Weight[k] > 0 {
					j16[i][k] = uint16(in.Joint[k])
				}
			}
			wts[i] = weights32(in)
		}
		joints = j16
	}
	attrs, err := modeler.WritePrimitiveAttributes(doc,
		modeler.PrimitiveAttribute{Name: gltflib.POSITION, Data: pos},
		modeler.PrimitiveAttribute{Name: gltflib.NORMAL, Data: nrm},
		modeler.PrimitiveAttribute{Name: gltflib.JOINTS_0, Data: joints},
		modeler.PrimitiveAttribute{Name: gltflib.WEIGHTS_0, Data: wts},
	)
	if err != nil {
		return nil, err
	}
	return &gltflib.Primitive{
		Attributes: attrs,
		Indices:    gltflib.Index(modeler.WriteIndices(doc, indices)),
		Mode:       gltflib.PrimitiveTriangles,
	}, nil
}

// weights32 converts weights to float32 so that they still sum to one
// after rounding: the largest absorbs the rounding error.
func weights32(in rig.Influence) [4]float32 {
	var w [4]float32
	var sum float32
	big := 0
	for k, x := range in.Weight {
		w[k] = float32(x)
		sum += w[k]
		if w[k] > w[big] {
			big = k
		}
	}
	w[big] += 1 - sum
	return w
}

// unit32 returns v as a float32 unit vector.
func unit32(v linalg.Vec3) [3]float32 {
	f := [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
	l := float32(math.Sqrt(float64(f[0]*f[0] + f[1]*f[1] + f[2]*f[2])))
	if l == 0 {
		return [3]float32{0, 0, 1}
	}
	return [3]float32{f[0] / l, f[1] / l, f[2] / l}
}

// mat4f converts to a float32 matrix indexed [row][col]; qmuntal/gltf
// stores it column-major, as glTF requires.
func mat4f(a linalg.Affine) [4][4]float32 {
	c := a.Mat4()
	var m [4][4]float32
	for col := 0; col < 4; col++ {
		for row := 0; row < 4; row++ {
			m[row][col] = float32(c[4*col+row])
		}
	}
	return m
}
