package fbx

import (
	"bytes"
	"math"
	"sort"

	"github.com/meshrig/meshrig/linalg"
)

// Ticks is FBX's time unit: KTime values count 1/46186158000 s.
const Ticks = 46186158000

// File is the object model of an FBX document: its objects by ID, the
// connections between them, and the global settings.
type File struct {
	Doc      *Document
	Settings Settings
	// Objects are the children of the Objects node, in file order.
	Objects []*Object
	byID    map[int64]*Object
	// Connections are the C records: child → parent, OO (object to
	// object) or OP (object to one of the parent's properties).
	Connections []Connection
	// templates hold Definitions' property defaults by object class.
	templates map[string]map[string]*Node
}

// Settings are the GlobalSettings the reader uses.
type Settings struct {
	// UpAxis is 0 X, 1 Y, 2 Z; UpAxisSign ±1.
	UpAxis, UpAxisSign int
	// UnitScaleFactor is the file's unit in centimetres (1: cm, 100: m).
	UnitScaleFactor float64
	// FPS is the frame rate of TimeMode (CustomFrameRate for custom); 0
	// when the file has none.
	FPS float64
}

// Object is one child of the Objects node: "Geometry", "Model",
// "Deformer", "Pose", "AnimationCurve", … (Class) of a subtype ("Mesh",
// "LimbNode", "Skin", "Cluster", …) with its ID and name.
type Object struct {
	ID    int64
	Class string
	Type  string
	Name  string
	Node  *Node
	// Parents and Children are the connections that name this object.
	Parents, Children []Connection
	props             map[string]*Node
}

// Connection is one C record: Child connects to Parent, to its property
// Property when Kind is "OP".
type Connection struct {
	Kind          string
	Child, Parent int64
	Property      string
	Offset        int64
}

// frameRates maps TimeMode to frames per second.
var frameRates = map[int64]float64{1: 120, 2: 100, 3: 60, 4: 50, 5: 48, 6: 30, 7: 30, 8: 30000.0 / 1001, 9: 30000.0 / 1001,
	10: 25, 11: 24, 12: 1000, 13: 24000.0 / 1001, 15: 96, 16: 72, 17: 60000.0 / 1001, 18: 120000.0 / 1001}

// NewFile builds the object model of a decoded document. It refuses
// objects without an ID, two objects with one ID, connections to objects
// that do not exist (ID 0, the scene root, excepted) and a cycle in the
// connections; errors are *format.ParseError with the record's offset.
func NewFile(doc *Document) (*File, error) {
	f := &File{Doc: doc, byID: map[int64]*Object{}, templates: map[string]map[string]*Node{}}
	f.Settings = Settings{UpAxis: 1, UpAxisSign: 1, UnitScaleFactor: 1}
	if gs := doc.Find("GlobalSettings"); gs != nil {
		p := propMap(gs.Child("Properties70"))
		if v, ok := pInt(p["UpAxis"]); ok && v >= 0 && v <= 2 {
			f.Settings.UpAxis = int(v)
		}
		if v, ok := pInt(p["UpAxisSign"]); ok && v < 0 {
			f.Settings.UpAxisSign = -1
		}
		if v, ok := pFloat(p["UnitScaleFactor"]); ok && v > 0 && !math.IsInf(v, 0) {
			f.Settings.UnitScaleFactor = v
		}
		mode, _ := pInt(p["TimeMode"])
		f.Settings.FPS = frameRates[mode]
		if v, ok := pFloat(p["CustomFrameRate"]); ok && mode == 14 && v > 0 && v < 1e6 {
			f.Settings.FPS = v
		}
	}
	if defs := doc.Find("Definitions"); defs != nil {
		for _, ot := range defs.Children {
			if ot.Name != "ObjectType" || len(ot.Props) == 0 {
				continue
			}
			if t := ot.Child("PropertyTemplate"); t != nil {
				f.templates[string(ot.Props[0].Bytes)] = propMap(t.Child("Properties70"))
			}
		}
	}
	if objs := doc.Find("Objects"); objs != nil {
		for _, n := range objs.Children {
			if len(n.Props) < 3 || n.Props[0].Type != 'L' || n.Props[1].Type != 'S' || n.Props[2].Type != 'S' {
				return nil, errAt(n.Offset, "object %q: want an ID, a name and a type", n.Name)
			}
			o := &Object{ID: n.Props[0].Int, Class: n.Name, Type: string(n.Props[2].Bytes), Node: n,
				props: propMap(n.Child("Properties70"))}
			o.Name = string(n.Props[1].Bytes)
			if i := bytes.Index(n.Props[1].Bytes, []byte("\x00\x01")); i >= 0 {
				o.Name = string(n.Props[1].Bytes[:i])
			}
			if o.ID == 0 {
				return nil, errAt(n.Offset, "%s %q has ID 0, the scene root's", n.Name, o.Name)
			}
			if f.byID[o.ID] != nil {
				return nil, errAt(n.Offset, "%s %q: ID %d used twice", n.Name, o.Name, o.ID)
			}
			f.byID[o.ID] = o
			f.Objects = append(f.Objects, o)
		}
	}
	if cs := doc.Find("Connections"); cs != nil {
		for _, c := range cs.Children {
			if c.Name != "C" {
				continue
			}
			if len(c.Props) < 3 || c.Props[0].Type != 'S' || c.Props[1].Type != 'L' || c.Props[2].Type != 'L' {
				return nil, errAt(c.Offset, "connection: want a kind and two object IDs")
			}
			k := Connection{Kind: string(c.Props[0].Bytes), Child: c.Props[1].Int, Parent: c.Props[2].Int, Offset: c.Offset}
			if k.Kind == "OP" || k.Kind == "PP" {
				if len(c.Props) < 4 || c.Props[3].Type != 'S' {
					return nil, errAt(c.Offset, "%s connection without a property name", k.Kind)
				}
				k.Property = string(c.Props[3].Bytes)
			}
			child, parent := f.byID[k.Child], f.byID[k.Parent]
			if child == nil || (parent == nil && k.Parent != 0) {
				return nil, errAt(c.Offset, "connection %d → %d names an object that does not exist", k.Child, k.Parent)
			}
			if k.Child == k.Parent {
				return nil, errAt(c.Offset, "object %d is connected to itself (a cycle)", k.Child)
			}
			f.Connections = append(f.Connections, k)
			child.Parents = append(child.Parents, k)
			if parent != nil {
				parent.Children = append(parent.Children, k)
			}
		}
	}
	if err := f.checkAcyclic(); err != nil {
		return nil, err
	}
	return f, nil
}

// checkAcyclic refuses a cycle among the connections (Kahn's algorithm:
// what never loses all its parents lies on or under a cycle).
func (f *File) checkAcyclic() error {
	pending := make(map[int64]int, len(f.Objects))
	var ready []int64
	for _, o := range f.Objects {
		n := 0
		for _, c := range o.Parents {
			if c.Parent != 0 {
				n++
			}
		}
		pending[o.ID] = n
		if n == 0 {
			ready = append(ready, o.ID)
		}
	}
	// Walk from the top: remove objects whose parents are all removed.
	done := 0
	childrenOf := func(id int64) []Connection { return f.byID[id].Children }
	for len(ready) > 0 {
		id := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		done++
		for _, c := range childrenOf(id) {
			pending[c.Child]--
			if pending[c.Child] == 0 {
				ready = append(ready, c.Child)
			}
		}
	}
	if done == len(f.Objects) {
		return nil
	}
	// Name the first connection into the cycle, in file order.
	var left []Connection
	for _, c := range f.Connections {
		if c.Parent != 0 && pending[c.Parent] > 0 && pending[c.Child] > 0 {
			left = append(left, c)
		}
	}
	sort.Slice(left, func(a, b int) bool { return left[a].Offset < left[b].Offset })
	at := int64(-1)
	if len(left) > 0 {
		at = left[0].Offset
	}
	return errAt(at, "%d objects are their own ancestors through the connections (a cycle)", len(f.Objects)-done)
}

// Object returns the object of an ID, or nil.
func (f *File) Object(id int64) *Object { return f.byID[id] }

// parentsOf returns o's OO parents of a class ("" any).
func (f *File) parentsOf(o *Object, class string) []*Object {
	var out []*Object
	for _, c := range o.Parents {
		if c.Kind != "OO" {
			continue
		}
		if p := f.byID[c.Parent]; p != nil && (class == "" || p.Class == class) {
			out = append(out, p)
		}
	}
	return out
}

// childrenOf returns o's OO children of a class ("" any).
func (f *File) childrenOf(o *Object, class string) []*Object {
	var out []*Object
	for _, c := range o.Children {
		if c.Kind != "OO" {
			continue
		}
		if p := f.byID[c.Child]; p != nil && (class == "" || p.Class == class) {
			out = append(out, p)
		}
	}
	return out
}

// propMap indexes the P records of a Properties70 node by name.
func propMap(n *Node) map[string]*Node {
	if n == nil {
		return nil
	}
	m := make(map[string]*Node, len(n.Children))
	for _, p := range n.Children {
		if p.Name == "P" && len(p.Props) > 0 && p.Props[0].Type == 'S' {
			m[string(p.Props[0].Bytes)] = p
		}
	}
	return m
}

// prop returns o's property name, or its class template's.
func (f *File) prop(o *Object, name string) *Node {
	if p := o.props[name]; p != nil {
		return p
	}
	tmpl := map[string]string{"Model": "FbxNode", "AnimationStack": "FbxAnimStack"}[o.Class]
	return f.templates[tmpl][name]
}

// numeric returns a property's k-th value (after name, type, label and
// flags) as a number.
func numeric(p *Node, k int) (float64, bool) {
	if p == nil || len(p.Props) <= 4+k {
		return 0, false
	}
	v := p.Props[4+k]
	switch v.Type {
	case 'D', 'F':
		return v.Float, true
	case 'I', 'L', 'Y', 'C':
		return float64(v.Int), true
	}
	return 0, false
}

func pFloat(p *Node) (float64, bool) { return numeric(p, 0) }

func pInt(p *Node) (int64, bool) {
	if p == nil || len(p.Props) <= 4 {
		return 0, false
	}
	switch v := p.Props[4]; v.Type {
	case 'I', 'L', 'Y', 'C':
		return v.Int, true
	}
	return 0, false
}

// vec3Prop reads a three-number property of o, with a default when it is
// absent; a property of the wrong shape or type is an error at its offset.
func (f *File) vec3Prop(o *Object, name string, def linalg.Vec3) (linalg.Vec3, error) {
	p := f.prop(o, name)
	if p == nil {
		return def, nil
	}
	var v linalg.Vec3
	for k := range v {
		x, ok := numeric(p, k)
		if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
			return v, errAt(p.Offset, "%s %q: property %q wants three finite numbers", o.Class, o.Name, name)
		}
		v[k] = x
	}
	return v, nil
}

// transform reads a Model's local transform properties.
func (f *File) transform(o *Object) (Transform, error) {
	var x Transform
	var err error
	one := linalg.Vec3{1, 1, 1}
	for _, v := range []struct {
		name string
		dst  *linalg.Vec3
		def  linalg.Vec3
	}{
		{"Lcl Translation", &x.Translation, linalg.Vec3{}}, {"Lcl Rotation", &x.Rotation, linalg.Vec3{}}, {"Lcl Scaling", &x.Scaling, one},
		{"PreRotation", &x.PreRotation, linalg.Vec3{}}, {"PostRotation", &x.PostRotation, linalg.Vec3{}},
		{"RotationOffset", &x.RotationOffset, linalg.Vec3{}}, {"RotationPivot", &x.RotationPivot, linalg.Vec3{}},
		{"ScalingOffset", &x.ScalingOffset, linalg.Vec3{}}, {"ScalingPivot", &x.ScalingPivot, linalg.Vec3{}},
		{"GeometricTranslation", &x.GeometricTranslation, linalg.Vec3{}}, {"GeometricRotation", &x.GeometricRotation, linalg.Vec3{}},
		{"GeometricScaling", &x.GeometricScale, one},
	} {
		if *v.dst, err = f.vec3Prop(o, v.name, v.def); err != nil {
			return x, err
		}
	}
	// Rotation order and pre/post rotations count only when
	// RotationActive is set (the FBX SDK's rule); Maya sets it whenever
	// it writes them.
	if act, ok := pInt(f.prop(o, "RotationActive")); ok && act == 0 {
		x.PreRotation, x.PostRotation = linalg.Vec3{}, linalg.Vec3{}
		return x, nil
	}
	if p := f.prop(o, "RotationOrder"); p != nil {
		v, ok := pInt(p)
		if !ok || v < 0 || v > int64(SphericXYZ) {
			return x, errAt(p.Offset, "%s %q: RotationOrder wants 0 to 6", o.Class, o.Name)
		}
		x.Order = RotationOrder(v)
	}
	return x, nil
}

// inheritType reads a Model's InheritType: 0 RrSs, 1 RSrs, 2 Rrs (the
// parent's scale not inherited, Maya's segment scale compensate).
func (f *File) inheritType(o *Object) int {
	v, _ := pInt(f.prop(o, "InheritType"))
	return int(v)
}
