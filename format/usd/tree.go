package usd

// valKind is the kind of a parsed value.
type valKind int

const (
	vNumber valKind = iota
	vString         // a string or token literal
	vIdent          // a bare word: true, false, None
	vPath
	vAsset
	vNumbers // a tuple or list of numbers, or of tuples of numbers, flattened
	vList    // a list or tuple of other values
	vDict
)

// value is a parsed usda value. Numeric tuples and arrays of them are
// kept flat (nums, width numbers per element) rather than as a tree, so
// a mesh's points cost one float64 each.
type value struct {
	kind  valKind
	line  int
	num   float64
	str   string
	nums  []float64
	width int // numbers per element of nums; 0 for a lone tuple
	items []value
	dict  map[string]value
}

// prim is a parsed prim: "def Type "name" (metadata) { … }".
type prim struct {
	typ, name string
	line      int
	meta      map[string]value
	props     map[string]*prop
	order     []string // property names in file order
	children  []*prim
}

// child returns the child prim of that name, or nil.
func (p *prim) child(name string) *prim {
	for _, c := range p.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// prop is a parsed attribute or relationship.
type prop struct {
	typ     string // "quatf[]", "rel"
	uniform bool   // declared uniform
	name    string
	line    int
	val     *value // the default value (or a relationship's target)
	samples []sample
	conn    string // a .connect target
	meta    map[string]value
	owner   *prim
}

// sample is one time sample of an attribute.
type sample struct {
	time float64
	val  value
}

// layer is a parsed usda layer.
type layer struct {
	meta  map[string]value
	prims []*prim
}
