package fbx

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// The fixed file ID, creation time and footer ID that go together, as
// writers outside Autodesk use them (Blender's exporter first): the FBX
// SDK checks that the footer ID matches the creation time.
var (
	fileID     = []byte{0x28, 0xb3, 0x2a, 0xeb, 0xb6, 0x24, 0xcc, 0xc2, 0xbf, 0xc8, 0xb0, 0x2a, 0xa9, 0x2b, 0xfc, 0xf1}
	footerID   = []byte{0xfa, 0xbc, 0xab, 0x09, 0xd0, 0xc8, 0xd4, 0x66, 0xb1, 0x76, 0xfb, 0x83, 0x1c, 0xf7, 0x26, 0x7e}
	footerEnd  = []byte{0xf8, 0x5a, 0x8c, 0x6a, 0xde, 0xf5, 0xd9, 0x7e, 0xec, 0xe9, 0x0c, 0xe3, 0x75, 0x8f, 0x29, 0x0b}
	createTime = "1970-01-01 10:00:00:000"
)

// timeModes maps frame rates to GlobalSettings' TimeMode.
var timeModes = map[float64]int{120: 1, 100: 2, 60: 3, 50: 4, 48: 5, 30: 6, 25: 10, 24: 11, 1000: 12, 96: 15, 72: 16}

// Write writes r as a binary FBX file, version 7.4 (opt.Version "7.5" for
// 7.5): the rest mesh (polygons as read, control points in r's vertex
// order), one LimbNode per joint placed at its rest offset with no rest
// rotation (the rig's convention), a Skin deformer with one Cluster per
// joint (Transform = T(−head), TransformLink = T(head): the mesh sits at
// the origin), a BindPose, and one AnimationStack per clip keying every
// joint's rotation (Euler XYZ in degrees, unwrapped so curves do not
// jump), the translation of every joint that moves off its rest offset
// (the root; every bone of a free rig) and the scale of every joint that
// scales (rig.Clip.Scale, Lcl Scaling; InheritType RSrs passes it down as
// glTF does) at each frame, linearly interpolated. Units are the rig's (UnitScaleFactor 1), Y up; the frame
// rate is the first clip's. Output is the same for the same rig.
func Write(w io.Writer, r *rig.Rig, opt format.WriteOptions) error {
	if err := r.Validate(); err != nil {
		return err
	}
	version := 7400
	switch opt.Version {
	case "", "7.4":
	case "7.5":
		version = 7500
	default:
		return fmt.Errorf("FBX version %q: %w (7.4 or 7.5)", opt.Version, format.ErrUnsupported)
	}
	return writeDoc(w, build(r, version))
}

// writeDoc writes doc's records and the footer.
func writeDoc(w io.Writer, doc *Document) error {
	version := doc.Version
	data := encode(doc, 64)
	var foot bytes.Buffer
	foot.Write(footerID)
	pad := 16 - (len(data)+foot.Len())%16
	foot.Write(make([]byte, pad))
	_ = binary.Write(&foot, binary.LittleEndian, uint32(version))
	foot.Write(make([]byte, 120))
	foot.Write(footerEnd)
	if _, err := w.Write(data); err != nil {
		return err
	}
	_, err := w.Write(foot.Bytes())
	return err
}

// builder assigns object IDs and collects objects and connections.
type builder struct {
	next    int64
	objects []*Node
	conns   []*Node
	counts  map[string]int
}

func (b *builder) id() int64 {
	b.next++
	return b.next
}

// object adds an object record of class with a name and subtype.
func (b *builder) object(class, name, sub string, children ...*Node) int64 {
	id := b.id()
	b.counts[class]++
	o := node(class, []Property{pL(id), pS(name + "\x00\x01" + objClass(class)), pS(sub)}, children...)
	o.EmptyList = len(children) == 0
	b.objects = append(b.objects, o)
	return id
}

// objClass is the class written after an object's name.
func objClass(class string) string {
	switch class {
	case "AnimationStack":
		return "AnimStack"
	case "AnimationLayer":
		return "AnimLayer"
	case "AnimationCurveNode":
		return "AnimCurveNode"
	case "AnimationCurve":
		return "AnimCurve"
	}
	return class
}

func (b *builder) oo(child, parent int64) {
	b.conns = append(b.conns, node("C", []Property{pS("OO"), pL(child), pL(parent)}))
}

func (b *builder) op(child, parent int64, prop string) {
	b.conns = append(b.conns, node("C", []Property{pS("OP"), pL(child), pL(parent), pS(prop)}))
}

func node(name string, props []Property, children ...*Node) *Node {
	return &Node{Name: name, Props: props, Children: children}
}

func pS(s string) Property              { return Property{Type: 'S', Bytes: []byte(s)} }
func pL(v int64) Property               { return Property{Type: 'L', Int: v} }
func pI(v int) Property                 { return Property{Type: 'I', Int: int64(v)} }
func pD(v float64) Property             { return Property{Type: 'D', Float: v} }
func one(name string, p Property) *Node { return node(name, []Property{p}) }

// prop70 is a Properties70 P record.
func prop70(name, typ, label, flags string, vals ...Property) *Node {
	return node("P", append([]Property{pS(name), pS(typ), pS(label), pS(flags)}, vals...))
}

func vec70(name, typ, flags string, v linalg.Vec3) *Node {
	return prop70(name, typ, "", flags, pD(v[0]), pD(v[1]), pD(v[2]))
}

func mat16(m linalg.Affine) Property {
	c := m.Mat4()
	return Property{Type: 'd', F64: c[:]}
}

// modelProps are a Model's properties: its attribute (the geometry or the
// LimbNode attribute: the FBX SDK finds none without DefaultAttributeIndex
// 0), the usual inheritance (RSrs), and its rest translation.
func modelProps(t linalg.Vec3) []*Node {
	return []*Node{
		prop70("InheritType", "enum", "", "", pI(1)),
		prop70("DefaultAttributeIndex", "int", "Integer", "", pI(0)),
		vec70("Lcl Translation", "Lcl Translation", "A", t),
		vec70("Lcl Rotation", "Lcl Rotation", "A", linalg.Vec3{}),
		vec70("Lcl Scaling", "Lcl Scaling", "A", linalg.Vec3{1, 1, 1}),
	}
}

// ticks converts frame f at fps into FBX time.
func ticks(f int, fps float64) int64 { return int64(math.Round(float64(f) * Ticks / fps)) }

// build makes the document of a rig.
func build(r *rig.Rig, version int) *Document {
	b := &builder{next: 1000, counts: map[string]int{}}
	sk := &r.Skeleton
	nj := sk.Len()
	fps := 30.0
	if len(r.Clips) > 0 {
		fps = r.Clips[0].FPS
	}
	// Mesh.
	m := r.Mesh
	verts := make([]float64, 0, 3*len(m.Verts))
	for _, v := range m.Verts {
		verts = append(verts, v[0], v[1], v[2])
	}
	polys, corners := polyCorners(m)
	var pvi []int32
	for _, p := range polys {
		for i, v := range p {
			if i == len(p)-1 {
				v = -v - 1
			}
			pvi = append(pvi, int32(v))
		}
	}
	layers, mats := surfaceLayers(m, polys, corners)
	geo := b.object("Geometry", "", "Mesh", append([]*Node{
		node("Vertices", []Property{{Type: 'd', F64: verts}}),
		node("PolygonVertexIndex", []Property{{Type: 'i', I32: pvi}}),
		one("GeometryVersion", pI(124))}, layers...)...)
	meshModel := b.object("Model", "mesh", "Mesh", one("Version", pI(232)),
		node("Properties70", nil, modelProps(linalg.Vec3{})...),
		one("Shading", Property{Type: 'C', Int: 1}), one("Culling", pS("CullingOff")))
	b.oo(meshModel, 0)
	b.oo(geo, meshModel)
	for k := 0; k < mats; k++ {
		var mat *mesh.Material
		if k < len(m.Surface.Materials) {
			mat = &m.Surface.Materials[k]
		}
		id := b.materialObject(mat)
		b.oo(id, meshModel)
		if mat != nil && mat.BaseColorTexture != nil {
			b.textureObjects(m.Surface, mat.BaseColorTexture, id)
		}
	}
	// Joints.
	models := make([]int64, nj)
	for j, jt := range sk.Joints {
		attr := b.object("NodeAttribute", jt.Name, "LimbNode", one("TypeFlags", pS("Skeleton")))
		models[j] = b.object("Model", jt.Name, "LimbNode", one("Version", pI(232)),
			node("Properties70", nil, modelProps(sk.Offset(rig.JointID(j)))...),
			one("Shading", Property{Type: 'C', Int: 1}), one("Culling", pS("CullingOff")))
		b.oo(attr, models[j])
		if jt.Parent == rig.NoParent {
			b.oo(models[j], 0)
		} else {
			b.oo(models[j], models[jt.Parent])
		}
	}
	// Skin: a cluster per joint (an unweighted joint's has no vertices, so
	// readers that build skeletons from clusters see every joint).
	skin := b.object("Deformer", "skin", "Skin", one("Version", pI(101)), one("Link_DeformAcuracy", pD(50)))
	b.oo(skin, geo)
	idx := make([][]int32, nj)
	wts := make([][]float64, nj)
	for i, in := range r.Skin {
		for k, w := range in.Weight {
			if w > 0 {
				j := in.Joint[k]
				idx[j] = append(idx[j], int32(i))
				wts[j] = append(wts[j], w)
			}
		}
	}
	pose := []*Node{one("Type", pS("BindPose")), one("Version", pI(100)), one("NbPoseNodes", pI(nj+1)),
		node("PoseNode", nil, one("Node", pL(meshModel)), one("Matrix", mat16(linalg.IdentityAffine())))}
	for j, jt := range sk.Joints {
		link := linalg.Translation(jt.Head)
		ch := []*Node{one("Version", pI(100)), node("UserData", []Property{pS(""), pS("")})}
		if len(idx[j]) > 0 {
			ch = append(ch, node("Indexes", []Property{{Type: 'i', I32: idx[j]}}), node("Weights", []Property{{Type: 'd', F64: wts[j]}}))
		}
		ch = append(ch, one("Transform", mat16(linalg.Translation(jt.Head.Scale(-1)))), one("TransformLink", mat16(link)))
		cl := b.object("Deformer", jt.Name, "Cluster", ch...)
		b.objects[len(b.objects)-1].Props[1] = pS(jt.Name + "\x00\x01SubDeformer")
		b.oo(cl, skin)
		b.oo(models[j], cl)
		pose = append(pose, node("PoseNode", nil, one("Node", pL(models[j])), one("Matrix", mat16(link))))
	}
	b.object("Pose", "BindPose", "BindPose", pose...)
	takes := b.animation(r, models)
	return &Document{Version: version, Nodes: b.document(version, fps, r, takes)}
}

// document assembles the top-level records.
func (b *builder) document(version int, fps float64, r *rig.Rig, takes []*Node) []*Node {
	mode, custom := 14, fps
	if m, ok := timeModes[fps]; ok {
		mode, custom = m, -1
	}
	var stop int64
	if len(r.Clips) > 0 {
		stop = ticks(r.Clips[0].Frames-1, r.Clips[0].FPS)
	}
	header := node("FBXHeaderExtension", nil,
		one("FBXHeaderVersion", pI(1003)), one("FBXVersion", pI(version)), one("EncryptionType", pI(0)),
		node("CreationTimeStamp", nil, one("Version", pI(1000)), one("Year", pI(1970)), one("Month", pI(1)),
			one("Day", pI(1)), one("Hour", pI(10)), one("Minute", pI(0)), one("Second", pI(0)), one("Millisecond", pI(0))),
		one("Creator", pS("meshrig")))
	settings := node("GlobalSettings", nil, one("Version", pI(1000)), node("Properties70", nil,
		prop70("UpAxis", "int", "Integer", "", pI(1)), prop70("UpAxisSign", "int", "Integer", "", pI(1)),
		prop70("FrontAxis", "int", "Integer", "", pI(2)), prop70("FrontAxisSign", "int", "Integer", "", pI(1)),
		prop70("CoordAxis", "int", "Integer", "", pI(0)), prop70("CoordAxisSign", "int", "Integer", "", pI(1)),
		prop70("OriginalUpAxis", "int", "Integer", "", pI(1)), prop70("OriginalUpAxisSign", "int", "Integer", "", pI(1)),
		prop70("UnitScaleFactor", "double", "Number", "", pD(1)), prop70("OriginalUnitScaleFactor", "double", "Number", "", pD(1)),
		prop70("TimeMode", "enum", "", "", pI(mode)), prop70("TimeSpanStart", "KTime", "Time", "", pL(0)),
		prop70("TimeSpanStop", "KTime", "Time", "", pL(stop)), prop70("CustomFrameRate", "double", "Number", "", pD(custom))))
	active := ""
	if len(r.Clips) > 0 {
		active = r.Clips[0].Name
	}
	docs := node("Documents", nil, one("Count", pI(1)), node("Document", []Property{pL(b.id()), pS(""), pS("Scene")},
		node("Properties70", nil, prop70("SourceObject", "object", "", ""), prop70("ActiveAnimStackName", "KString", "", "", pS(active))),
		one("RootNode", pL(0))))
	defs := []*Node{one("Version", pI(100))}
	total := 1
	defs = append(defs, node("ObjectType", []Property{pS("GlobalSettings")}, one("Count", pI(1))))
	for _, class := range []string{"Geometry", "Model", "NodeAttribute", "Material", "Texture", "Video", "Deformer", "Pose", "AnimationStack", "AnimationLayer", "AnimationCurveNode", "AnimationCurve"} {
		if n := b.counts[class]; n > 0 {
			defs = append(defs, node("ObjectType", []Property{pS(class)}, one("Count", pI(n))))
			total += n
		}
	}
	defs = append(defs[:1], append([]*Node{one("Count", pI(total))}, defs[1:]...)...)
	return []*Node{
		header,
		one("FileId", Property{Type: 'R', Bytes: fileID}),
		one("CreationTime", pS(createTime)),
		one("Creator", pS("meshrig")),
		settings, docs,
		{Name: "References", EmptyList: true},
		node("Definitions", nil, defs...),
		node("Objects", nil, b.objects...),
		node("Connections", nil, b.conns...),
		node("Takes", nil, append([]*Node{one("Current", pS(active))}, takes...)...),
	}
}
