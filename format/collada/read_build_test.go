package collada

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/linalg"
)

// doc141 assembles a hand-written COLLADA 1.4.1 document, one element per
// line, so tests can state what another tool might write and where an
// error must point. Counts are filled in from the data.
type doc141 struct {
	pos       string // positions, x y z per vertex
	prims     string // primitive elements over VERTEX source "#v"
	bindShape string // the bind_shape_matrix's 16 numbers; "" for none
	jointArr  string // "Name_array" (default) or "IDREF_array"
	joints    string // the skin's joint names
	ibm       string // 16 numbers per joint
	weights   string // the weight array
	vcount, v string // vertex_weights: influences per vertex, (joint, weight) pairs
	nodes     string // the visual scene's nodes; the skinned mesh node is added
	skeleton  string // the instance's <skeleton> URL; "" for none
	anims     string // <animation> elements
	clips     string // <animation_clip> elements
}

func (d doc141) String() string {
	arr := d.jointArr
	if arr == "" {
		arr = "Name_array"
	}
	nj, nw := countFields(d.joints), countFields(d.weights)
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w(`<?xml version="1.0" encoding="utf-8"?>`)
	w(`<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">`)
	w(`<asset><unit meter="1"/><up_axis>Y_UP</up_axis></asset>`)
	w(`<library_geometries>`)
	w(`<geometry id="g"><mesh>`)
	w(`<source id="p"><float_array id="pa" count="%d">%s</float_array>`, countFields(d.pos), d.pos)
	w(`<technique_common><accessor source="#pa" count="%d" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>`, countFields(d.pos)/3)
	w(`<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>`)
	w("%s", d.prims)
	w(`</mesh></geometry>`)
	w(`</library_geometries>`)
	w(`<library_controllers>`)
	w(`<controller id="c"><skin source="#g">`)
	if d.bindShape != "" {
		w(`<bind_shape_matrix>%s</bind_shape_matrix>`, d.bindShape)
	}
	w(`<source id="j"><%s id="ja" count="%d">%s</%[1]s>`, arr, nj, d.joints)
	w(`<technique_common><accessor source="#ja" count="%d"><param name="JOINT" type="name"/></accessor></technique_common></source>`, nj)
	w(`<source id="m"><float_array id="ma" count="%d">%s</float_array>`, countFields(d.ibm), d.ibm)
	w(`<technique_common><accessor source="#ma" count="%d" stride="16"><param name="TRANSFORM" type="float4x4"/></accessor></technique_common></source>`, countFields(d.ibm)/16)
	w(`<source id="w"><float_array id="wa" count="%d">%s</float_array>`, nw, d.weights)
	w(`<technique_common><accessor source="#wa" count="%d"><param name="WEIGHT" type="float"/></accessor></technique_common></source>`, nw)
	w(`<joints><input semantic="JOINT" source="#j"/><input semantic="INV_BIND_MATRIX" source="#m"/></joints>`)
	w(`<vertex_weights count="%d">`, countFields(d.vcount))
	w(`<input semantic="JOINT" source="#j" offset="0"/><input semantic="WEIGHT" source="#w" offset="1"/>`)
	w(`<vcount>%s</vcount>`, d.vcount)
	w(`<v>%s</v>`, d.v)
	w(`</vertex_weights>`)
	w(`</skin></controller>`)
	w(`</library_controllers>`)
	if d.anims != "" {
		w(`<library_animations>`)
		w("%s", d.anims)
		w(`</library_animations>`)
	}
	if d.clips != "" {
		w(`<library_animation_clips>`)
		w("%s", d.clips)
		w(`</library_animation_clips>`)
	}
	w(`<library_visual_scenes>`)
	w(`<visual_scene id="s">`)
	w("%s", d.nodes)
	skel := ""
	if d.skeleton != "" {
		skel = "<skeleton>" + d.skeleton + "</skeleton>"
	}
	w(`<node id="skinned"><instance_controller url="#c">%s</instance_controller></node>`, skel)
	w(`</visual_scene>`)
	w(`</library_visual_scenes>`)
	w(`<scene><instance_visual_scene url="#s"/></scene>`)
	w(`</COLLADA>`)
	return b.String()
}

// animXML is a one-channel <animation> targeting target, with keys at
// times, width values per key in values, and interp per key ("" for no
// INTERPOLATION input).
func animXML(id, target, times, values string, width int, interp string) string {
	n := countFields(times)
	var b strings.Builder
	fmt.Fprintf(&b, `<animation id="%s">`+"\n", id)
	fmt.Fprintf(&b, `<source id="%s-t"><float_array id="%[1]s-ta" count="%d">%s</float_array><technique_common><accessor source="#%[1]s-ta" count="%[2]d"><param name="TIME" type="float"/></accessor></technique_common></source>`+"\n", id, n, times)
	fmt.Fprintf(&b, `<source id="%s-o"><float_array id="%[1]s-oa" count="%d">%s</float_array><technique_common><accessor source="#%[1]s-oa" count="%[4]d" stride="%[5]d"><param type="float"/></accessor></technique_common></source>`+"\n", id, countFields(values), values, n, width)
	in := ""
	if interp != "" {
		fmt.Fprintf(&b, `<source id="%s-i"><Name_array id="%[1]s-ia" count="%d">%s</Name_array><technique_common><accessor source="#%[1]s-ia" count="%[2]d"><param type="name"/></accessor></technique_common></source>`+"\n", id, n, interp)
		in = fmt.Sprintf(`<input semantic="INTERPOLATION" source="#%s-i"/>`, id)
	}
	fmt.Fprintf(&b, `<sampler id="%s-s"><input semantic="INPUT" source="#%[1]s-t"/><input semantic="OUTPUT" source="#%[1]s-o"/>%s</sampler>`+"\n", id, in)
	fmt.Fprintf(&b, `<channel source="#%s-s" target="%s"/>`+"\n", id, target)
	b.WriteString("</animation>")
	return b.String()
}

// rowMajor writes an affine transform as COLLADA's 16 numbers.
func rowMajor(a linalg.Affine) string { return string(appendMatrix(nil, a)) }

// identity16 is the identity matrix in COLLADA's layout.
const identity16 = "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1"

// readDoc reads a document from memory as x.dae.
func readDoc(t testing.TB, doc string, opt format.SceneOptions) (*format.Scene, error) {
	t.Helper()
	return ReadScene(fstest.MapFS{"x.dae": {Data: []byte(doc)}}, "x.dae", opt)
}

// lineOf returns the 1-based line of doc on which s first occurs.
func lineOf(t testing.TB, doc, s string) int {
	t.Helper()
	i := strings.Index(doc, s)
	if i < 0 {
		t.Fatalf("%q is not in the document", s)
	}
	return strings.Count(doc[:i], "\n") + 1
}

// arm is two joints, a at the origin and its child b at (1, 0, 0), each
// with a translate and a rotate about z (angle 0), and three vertices:
// (0.5, 0, 0) on a, (2, 0, 0) on b, (1, 0.5, 0) half on each.
func arm() doc141 {
	return doc141{
		pos:     "0.5 0 0 2 0 0 1 0.5 0",
		prims:   `<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>`,
		joints:  "a b",
		ibm:     identity16 + " " + rowMajor(linalg.Translation(linalg.Vec3{-1, 0, 0})),
		weights: "1 0.5",
		vcount:  "1 1 2",
		v:       "0 0 1 0 0 1 1 1",
		nodes: `<node id="a" sid="a" name="a" type="JOINT"><translate sid="t">0 0 0</translate><rotate sid="rz">0 0 1 0</rotate>` + "\n" +
			`<node id="b" sid="b" name="b" type="JOINT"><translate sid="t">1 0 0</translate><rotate sid="rz">0 0 1 0</rotate></node>` + "\n" +
			`</node>`,
		skeleton: "#a",
	}
}
