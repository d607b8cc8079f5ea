package fbx

// tinyRig builds a small skinned, animated file by hand: a quad and a
// triangle (five vertices) bound to "hip" at the origin and its child
// "arm" at (1,0,0); the arm turns about Z from 0° at t = 0 to 90° at
// t = 1 s (linear keys); vertex 1 is shared half and half. Frame rate 30
// (TimeMode 6).
func tinyRig(version int) *Document {
	const (
		geo, meshM, hip, arm   = int64(10), int64(11), int64(20), int64(21)
		skin, clHip, clArm     = int64(30), int64(31), int64(32)
		pose                   = int64(40)
		stack, layer, cn, crvZ = int64(50), int64(51), int64(52), int64(53)
	)
	ident := []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
	tr := func(x, y, z float64) []float64 {
		return []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1}
	}
	model := func(id int64, name, typ string, t [3]float64) *Node {
		return nd("Model", ps(id, name+"\x00\x01Model", typ),
			nd("Version", ps(232)),
			nd("Properties70", nil, p70("Lcl Translation", "Lcl Translation", t[0], t[1], t[2])))
	}
	cluster := func(id int64, idx []int32, w []float64, transform, link []float64) *Node {
		return nd("Deformer", ps(id, "\x00\x01SubDeformer", "Cluster"),
			nd("Indexes", ps(idx)), nd("Weights", ps(w)),
			nd("Transform", ps(transform)), nd("TransformLink", ps(link)))
	}
	c := func(kind string, child, parent int64, prop ...string) *Node {
		vals := []any{kind, child, parent}
		for _, p := range prop {
			vals = append(vals, p)
		}
		return nd("C", ps(vals...))
	}
	sec := int64(Ticks)
	objects := nd("Objects", nil,
		nd("Geometry", ps(geo, "\x00\x01Geometry", "Mesh"),
			nd("Vertices", ps([]float64{0, 0, 0, 1, 0, 0, 2, 0, 0, 2, 1, 0, 0, 1, 0})),
			nd("PolygonVertexIndex", ps([]int32{0, 1, 3, -5, 1, 2, -4})),
			nd("LayerElementUV", ps(0),
				nd("Name", ps("map1")),
				nd("MappingInformationType", ps("ByPolygonVertex")),
				nd("ReferenceInformationType", ps("IndexToDirect")),
				nd("UV", ps([]float64{0, 0, 1, 0, 1, 1})),
				nd("UVIndex", ps([]int32{0, 1, 2, 0, 1, 2, 0}))),
		),
		model(meshM, "body", "Mesh", [3]float64{}),
		model(hip, "hip", "LimbNode", [3]float64{}),
		model(arm, "arm", "LimbNode", [3]float64{1, 0, 0}),
		nd("Pose", ps(pose, "bind\x00\x01Pose", "BindPose"),
			nd("Type", ps("BindPose")),
			nd("PoseNode", nil, nd("Node", ps(meshM)), nd("Matrix", ps(ident))),
			nd("PoseNode", nil, nd("Node", ps(hip)), nd("Matrix", ps(ident))),
			nd("PoseNode", nil, nd("Node", ps(arm)), nd("Matrix", ps(tr(1, 0, 0))))),
		nd("Deformer", ps(skin, "\x00\x01Deformer", "Skin")),
		cluster(clHip, []int32{0, 4, 1}, []float64{1, 1, 0.5}, ident, ident),
		cluster(clArm, []int32{2, 3, 1}, []float64{1, 1, 0.5}, tr(-1, 0, 0), tr(1, 0, 0)),
		nd("AnimationStack", ps(stack, "wave\x00\x01AnimStack", "")),
		nd("AnimationLayer", ps(layer, "base\x00\x01AnimLayer", "")),
		nd("AnimationCurveNode", ps(cn, "R\x00\x01AnimCurveNode", ""),
			nd("Properties70", nil, p70("d|X", "Number", 0.0), p70("d|Y", "Number", 0.0), p70("d|Z", "Number", 0.0))),
		nd("AnimationCurve", ps(crvZ, "\x00\x01AnimCurve", ""),
			nd("Default", ps(0.0)),
			nd("KeyTime", ps([]int64{0, sec})),
			nd("KeyValueFloat", ps([]float32{0, 90})),
			nd("KeyAttrFlags", ps([]int32{interpLinear})),
			nd("KeyAttrDataFloat", ps([]float32{0, 0, 0, 0})),
			nd("KeyAttrRefCount", ps([]int32{2}))),
	)
	conns := nd("Connections", nil,
		c("OO", meshM, 0), c("OO", hip, 0), c("OO", arm, hip), c("OO", geo, meshM),
		c("OO", skin, geo), c("OO", clHip, skin), c("OO", clArm, skin),
		c("OO", hip, clHip), c("OO", arm, clArm),
		c("OO", layer, stack), c("OO", cn, layer), c("OP", cn, arm, "Lcl Rotation"), c("OP", crvZ, cn, "d|Z"),
	)
	settings := nd("GlobalSettings", nil, nd("Version", ps(1000)),
		nd("Properties70", nil, p70("UpAxis", "int", 1), p70("UnitScaleFactor", "double", 1.0), p70("TimeMode", "enum", 6)))
	return &Document{Version: version, Nodes: []*Node{
		nd("FBXHeaderExtension", nil, nd("FBXVersion", ps(version))),
		settings, objects, conns,
	}}
}

// microRig is the smallest skinned, animated file, for fuzz seeds: a
// triangle on one joint whose X translation is keyed from 0 to 1 over a
// second.
func microRig(version int) *Document {
	c := func(kind string, child, parent int64, prop ...string) *Node {
		vals := []any{kind, child, parent}
		for _, p := range prop {
			vals = append(vals, p)
		}
		return nd("C", ps(vals...))
	}
	ident := []float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
	return &Document{Version: version, Nodes: []*Node{
		nd("Objects", nil,
			nd("Geometry", ps(int64(1), "", "Mesh"),
				nd("Vertices", ps([]float64{0, 0, 0, 1, 0, 0, 0, 1, 0})),
				nd("PolygonVertexIndex", ps([]int32{0, 1, -3}))),
			nd("Model", ps(int64(2), "m", "Mesh")),
			nd("Model", ps(int64(3), "j", "LimbNode")),
			nd("Deformer", ps(int64(4), "", "Skin")),
			nd("Deformer", ps(int64(5), "", "Cluster"),
				nd("Indexes", ps([]int32{0, 1, 2})), nd("Weights", ps([]float64{1, 1, 1})),
				nd("Transform", ps(ident)), nd("TransformLink", ps(ident))),
			nd("AnimationStack", ps(int64(6), "s", "")),
			nd("AnimationLayer", ps(int64(7), "", "")),
			nd("AnimationCurveNode", ps(int64(8), "", "")),
			nd("AnimationCurve", ps(int64(9), "", ""),
				nd("KeyTime", ps([]int64{0, Ticks})), nd("KeyValueFloat", ps([]float32{0, 1})))),
		nd("Connections", nil,
			c("OO", 2, 0), c("OO", 3, 0), c("OO", 1, 2), c("OO", 4, 1), c("OO", 5, 4), c("OO", 3, 5),
			c("OO", 7, 6), c("OO", 8, 7), c("OP", 8, 3, "Lcl Translation"), c("OP", 9, 8, "d|X")),
	}}
}

// microSurface is microRig with a UV layer, a material layer and a
// material with a texture, for fuzz seeds that reach the surface reader.
func microSurface() *Document {
	d := microRig(7400)
	objs := d.Nodes[0]
	geo := objs.Children[0]
	geo.Children = append(geo.Children,
		nd("LayerElementUV", ps(0), nd("MappingInformationType", ps("ByPolygonVertex")),
			nd("ReferenceInformationType", ps("IndexToDirect")), nd("UV", ps([]float64{0, 0, 1, 1})), nd("UVIndex", ps([]int32{0, 1, 0}))),
		nd("LayerElementMaterial", ps(0), nd("MappingInformationType", ps("AllSame")),
			nd("ReferenceInformationType", ps("IndexToDirect")), nd("Materials", ps([]int32{0}))))
	objs.Children = append(objs.Children,
		nd("Material", ps(int64(10), "m", "")),
		nd("Texture", ps(int64(11), "t", ""), nd("RelativeFilename", ps("t.png"))),
		nd("Video", ps(int64(12), "v", "Clip"), nd("Content", []Property{{Type: 'R', Bytes: []byte("\x89PNG")}})))
	conns := d.Nodes[1]
	conns.Children = append(conns.Children, nd("C", ps("OO", int64(10), int64(2))), nd("C", ps("OP", int64(11), int64(10), "DiffuseColor")),
		nd("C", ps("OO", int64(12), int64(11))))
	return d
}
