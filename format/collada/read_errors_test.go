package collada

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
)

// TestReadRefuses reads documents meshrig cannot read or that are broken,
// each a small change to the arm: the error names the file, the line of
// the element at fault (anchor: text on that line) and what is wrong;
// what meshrig does not read wraps format.ErrUnsupported, a document that
// ends early format.ErrTruncated. Nothing panics, and nothing is
// allocated for sizes the text does not hold.
func TestReadRefuses(t *testing.T) {
	base := arm()
	turn := animXML("turn", "a/rz.ANGLE", "0 1", "0 90", 1, "")
	for _, tc := range []struct {
		name   string
		edit   func(d *doc141)
		text   func(s string) string // applied to the document after edit
		anchor string
		want   string
		is     error
	}{
		// A scale along axes turned from the joint's own (scale before
		// rotate in the node) shears it; scale along its own axes is read
		// as scale tracks (TestScaleRoundTrip).
		{name: "shearing joint", edit: func(d *doc141) {
			d.nodes = strings.Replace(d.nodes, `<rotate sid="rz">0 0 1 0</rotate></node>`, `<scale sid="s">1 1 1</scale><rotate sid="rz">0 0 1 45</rotate></node>`, 1)
			d.anims = animXML("grow", "b/s", "0 1", "1 1 1 2 1 1", 3, "")
		}, anchor: `<animation id="grow">`, want: `clip "grow", frame 2 (1 s): joint "b" shears the mesh`, is: format.ErrUnsupported},
		{name: "morph", text: replace(`<skin source="#g">`, `<morph source="#g">`, `</skin></controller>`, `</morph></controller>`),
			anchor: `<controller id="c">`, want: "morph controllers", is: format.ErrUnsupported},
		{name: "two skins", edit: func(d *doc141) { d.nodes += "\n" + `<node id="twin"><instance_controller url="#c"/></node>` },
			anchor: `<node id="skinned">`, want: "a second skinned mesh (the first at line", is: format.ErrUnsupported},
		{name: "unskinned geometry", edit: func(d *doc141) { d.nodes += "\n" + `<node id="prop"><instance_geometry url="#g"/></node>` },
			anchor: `<node id="prop">`, want: `geometry "#g" without a skin`, is: format.ErrUnsupported},
		{name: "instance_node", edit: func(d *doc141) { d.nodes += "\n" + `<node id="ref"><instance_node url="#a"/></node>` },
			anchor: `<node id="ref">`, want: "nodes instanced from a library", is: format.ErrUnsupported},
		{name: "lookat", edit: func(d *doc141) {
			d.nodes = strings.Replace(d.nodes, `<translate sid="t">0 0 0</translate>`, "<lookat>0 0 0 0 0 1 0 1 0</lookat>", 1)
		}, anchor: "<lookat>", want: "lookat transforms", is: format.ErrUnsupported},
		{name: "bezier", edit: func(d *doc141) { d.anims = animXML("turn", "a/rz.ANGLE", "0 1", "0 90", 1, "BEZIER BEZIER") },
			anchor: `<sampler id="turn-s">`, want: "key 1: unsupported BEZIER interpolation", is: format.ErrUnsupported},
		{name: "matrix element", edit: func(d *doc141) {
			d.nodes = strings.Replace(d.nodes, `<translate sid="t">0 0 0</translate>`, `<matrix sid="m">`+identity16+`</matrix>`, 1)
			d.anims = animXML("turn", "a/m(0)(1)", "0 1", "0 1", 1, "")
		}, anchor: `<channel source="#turn-s"`, want: `member "(0)(1)" of a <matrix>`, is: format.ErrUnsupported},
		{name: "projective matrix", edit: func(d *doc141) {
			d.nodes = strings.Replace(d.nodes, `<translate sid="t">0 0 0</translate>`, `<matrix sid="m">1 0 0 0 0 1 0 0 0 0 1 0 0 0 1 1</matrix>`, 1)
		}, anchor: `<matrix sid="m">`, want: "bottom row [0 0 1 1]", is: format.ErrUnsupported},
		{name: "holes", edit: func(d *doc141) {
			d.prims = `<polygons count="1"><input semantic="VERTEX" source="#v" offset="0"/>` + "\n" + `<ph><p>0 1 2</p><h>0 1 2</h></ph></polygons>`
		}, anchor: "<ph>", want: "polygons with holes", is: format.ErrUnsupported},
		{name: "strips", edit: func(d *doc141) {
			d.prims = `<tristrips count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></tristrips>`
		}, anchor: "<tristrips", want: "triangle strips and fans", is: format.ErrUnsupported},
		{name: "other document", text: replace(`<skin source="#g">`, `<skin source="other.dae#g">`),
			anchor: `<skin source=`, want: `source "other.dae#g": unsupported`, is: format.ErrUnsupported},
		{name: "bind shape index", edit: func(d *doc141) { d.v = "-1 0 1 0 0 1 1 1" },
			anchor: "<v>", want: "vertex 1: joint index -1", is: format.ErrUnsupported},
		{name: "unweighted vertex", edit: func(d *doc141) { d.vcount, d.v = "0 1 2", "1 0 0 1 1 1" },
			anchor: "<v>", want: "vertex 1 has no usable joint weight", is: format.ErrUnsupported},
		{name: "version", text: replace(`version="1.4.1"`, `version="1.3.0"`),
			anchor: "<COLLADA", want: `version "1.3.0"`, is: format.ErrUnsupported},
		{name: "SIDREF", text: replace(`<Name_array id="ja"`, `<SIDREF_array id="ja"`, `</Name_array>`, `</SIDREF_array>`),
			anchor: "<SIDREF_array", want: "joints named by SID references", is: format.ErrUnsupported},
		{name: "truncated", text: func(s string) string { return strings.TrimSpace(s[:strings.Index(s, "<library_controllers>")]) },
			anchor: "</library_geometries>", want: "the document ends inside <COLLADA> (line 2)", is: format.ErrTruncated},
		{name: "not COLLADA", text: func(string) string { return "<?xml version=\"1.0\"?>\n<svg/>" },
			anchor: "<svg/>", want: "not a COLLADA document: the root element is <svg>"},
		{name: "XML syntax", text: replace(`</vertex_weights>`, `</vertex_weight>`),
			anchor: "</vertex_weight>", want: "XML: element <vertex_weights> closed by </vertex_weight>"},
		{name: "count", text: replace(`<float_array id="pa" count="9">`, `<float_array id="pa" count="10">`),
			anchor: `<float_array id="pa"`, want: "holds 9 numbers, want 10"},
		{name: "huge count", text: replace(`<float_array id="pa" count="9">`, `<float_array id="pa" count="2000000000">`),
			anchor: `<float_array id="pa"`, want: "holds 9 numbers, want 2000000000"},
		{name: "not a number", edit: func(d *doc141) { d.pos = "0.5 0 0 2 0 0 1 NaN 0" },
			anchor: `<float_array id="pa"`, want: `value 8, "NaN", is not a finite number`},
		{name: "accessor", text: replace(`<accessor source="#pa" count="3"`, `<accessor source="#pa" count="4"`),
			anchor: `<accessor source="#pa"`, want: "4 elements of 3 values from 0 do not fit in the array's 9 values"},
		{name: "index", edit: func(d *doc141) { d.prims = strings.Replace(d.prims, "<p>0 1 2</p>", "<p>0 1 3</p>", 1) },
			anchor: "<triangles", want: "corner 3: vertex index 3 out of range (the mesh has 3 positions)"},
		{name: "degenerate face", edit: func(d *doc141) { d.prims = strings.Replace(d.prims, "<p>0 1 2</p>", "<p>0 1 1</p>", 1) },
			anchor: `<geometry id="g">`, want: "face 1 uses vertex 2 twice"},
		{name: "dangling URL", text: replace(`<instance_controller url="#c">`, `<instance_controller url="#nope">`),
			anchor: "<instance_controller", want: `url "#nope": no element has that id`},
		{name: "wrong element", text: replace(`<instance_controller url="#c">`, `<instance_controller url="#g">`),
			anchor: "<instance_controller", want: `url "#g" is a <geometry> (line 5), not a <controller>`},
		{name: "weights count", edit: func(d *doc141) { d.vcount, d.v = "1 1", "0 0 1 0" },
			anchor: "<vertex_weights", want: "weights for 2 vertices, the geometry has 3 positions"},
		{name: "keys backwards", edit: func(d *doc141) { d.anims = animXML("turn", "a/rz.ANGLE", "1 0", "0 90", 1, "") },
			anchor: `<sampler id="turn-s">`, want: "key 2 at 0 s comes before key 1 at 1 s"},
		{name: "animated twice", edit: func(d *doc141) {
			d.anims = turn + "\n" + animXML("turn2", "a/rz.ANGLE", "0 1", "0 45", 1, "")
			d.clips = `<animation_clip id="both" end="1"><instance_animation url="#turn"/><instance_animation url="#turn2"/></animation_clip>`
		}, anchor: `<channel source="#turn2-s"`, want: `animates what the channel at line`},
		{name: "unknown sid", edit: func(d *doc141) { d.anims = animXML("turn", "a/spin.ANGLE", "0 1", "0 90", 1, "") },
			anchor: `<channel source="#turn-s"`, want: `node "a" has no transform with sid "spin"`},
		{name: "singular bind", edit: func(d *doc141) { d.ibm = identity16 + " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1" },
			anchor: "<joints>", want: `joint "b": its inverse bind matrix is singular`},
		{name: "clip ends before its start", edit: func(d *doc141) {
			d.anims, d.clips = turn, `<animation_clip id="back" start="1" end="0.5"><instance_animation url="#turn"/></animation_clip>`
		}, anchor: "<animation_clip", want: "ends at 0.5 s, before its start at 1 s"},
		{name: "too long to sample", edit: func(d *doc141) {
			d.anims, d.clips = turn, `<animation_clip id="long" end="1e12"><instance_animation url="#turn"/></animation_clip>`
		}, anchor: "<animation_clip", want: `clip "long": 30000000000001 frames (at 30 fps) × 3 vertices and 2 joints need 1.03e+04 TiB, more than the 1.5 GiB meshrig samples into`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := base
			if tc.edit != nil {
				tc.edit(&d)
			}
			doc := d.String()
			if tc.text != nil {
				doc = tc.text(doc)
			}
			path := filepath.Join(t.TempDir(), "x.dae")
			if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := format.ReadScene(path, format.SceneOptions{})
			if err == nil {
				t.Fatal("read without error")
			}
			at := path + ": "
			if tc.anchor != "" {
				at = fmt.Sprintf("%s:%d: ", path, lineOf(t, doc, tc.anchor))
			}
			if !strings.HasPrefix(err.Error(), at) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q\nwant it to start %q and say %q", err, at, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %q does not wrap %v", err, tc.is)
			}
		})
	}
}

// replace returns an edit replacing old with new pairs.
func replace(pairs ...string) func(string) string {
	return func(s string) string {
		for k := 0; k+1 < len(pairs); k += 2 {
			s = strings.Replace(s, pairs[k], pairs[k+1], 1)
		}
		return s
	}
}

// TestReadLimits: a document past the reader's limits is refused before
// it is built: more bytes, elements or numbers than allowed; so is what
// is not a regular file.
func TestReadLimits(t *testing.T) {
	doc := []byte(arm().String())
	for _, tc := range []struct {
		name string
		lim  limits
		want string
	}{
		{"file", limits{file: 100, elements: 1000, numbers: 1000, sample: 1e9}, "bytes: larger than meshrig reads"},
		{"elements", limits{file: 1e6, elements: 10, numbers: 1000, sample: 1e9}, "more than 10 XML elements"},
		{"numbers", limits{file: 1e6, elements: 1000, numbers: 20, sample: 1e9}, "more than 20 numbers in the arrays read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readScene(fstest.MapFS{"x.dae": {Data: doc}}, "x.dae", format.SceneOptions{}, tc.lim)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, errTooLarge) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// A folder is no file to read.
	_, err := ReadScene(fstest.MapFS{"d.dae/x": {}}, "d.dae", format.SceneOptions{})
	if !errors.Is(err, format.ErrNotRegular) {
		t.Errorf("a folder: err = %v", err)
	}
	// A file whose size Stat does not tell stops at the limit too.
	_, err = parseXML(&capped{r: strings.NewReader(string(doc)), left: 100}, defaults)
	if !errors.Is(err, errTooLarge) {
		t.Errorf("capped reader: err = %v", err)
	}
}
