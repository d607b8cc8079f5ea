package usd

import (
	"fmt"
	"strings"
)

// treeBuilder turns specs into the parser's tree.
type treeBuilder struct {
	d     *dec
	meta  map[string]value
	roots []string
	prims map[string]*prim
	kids  map[string][]string
}

func (tb *treeBuilder) spec(path string, typ int32, f map[string]uint64) error {
	d := tb.d
	switch typ {
	case specPseudoRoot:
		tb.meta = map[string]value{}
		for k, r := range f {
			if k == "primChildren" {
				v, err := d.tokenList(r)
				if err != nil {
					return err
				}
				tb.roots = v
				continue
			}
			v, err := d.value(r)
			if err != nil {
				return fmt.Errorf("layer %s: %w", k, err)
			}
			if k == "documentation" {
				k = "doc"
			}
			tb.meta[k] = v
		}
	case specPrim:
		p := &prim{name: path[strings.LastIndexByte(path, '/')+1:], meta: map[string]value{}, props: map[string]*prop{}}
		tb.prims[path] = p
		if tb.kids == nil {
			tb.kids = map[string][]string{}
		}
		for k, r := range f {
			var err error
			switch k {
			case "typeName":
				var v value
				if v, err = d.value(r); err == nil {
					p.typ = v.str
				}
			case "primChildren":
				tb.kids[path], err = d.tokenList(r)
			case "properties":
				p.order, err = d.tokenList(r)
			case "apiSchemas", "customData":
				p.meta[k], err = d.value(r)
			}
			if err != nil {
				return fmt.Errorf("%s %s: %w", path, k, err)
			}
		}
	case specAttribute, specRelationship:
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			return badf(0, "property path %q has no property name", path)
		}
		p := tb.prims[path[:i]]
		if p == nil {
			return badf(0, "property %q comes before its prim", path)
		}
		a := &prop{name: path[i+1:], owner: p, meta: map[string]value{}}
		if typ == specRelationship {
			a.typ = "rel"
		}
		p.props[a.name] = a
		for k, r := range f {
			var err error
			var v value
			switch k {
			case "typeName":
				if v, err = d.value(r); err == nil {
					a.typ = v.str
				}
			case "variability":
				a.uniform = r&(1<<48-1) == 1
			case "default":
				if v, err = d.value(r); err == nil {
					a.val = &v
				}
			case "targetPaths":
				if v, err = d.value(r); err == nil {
					a.val = &v
				}
			case "connectionPaths":
				if v, err = d.value(r); err == nil {
					a.conn = v.str
				}
			case "timeSamples":
				a.samples, err = d.samples(r)
			default:
				a.meta[k], err = d.value(r)
			}
			if err != nil {
				return fmt.Errorf("%s %s: %w", path, k, err)
			}
		}
	default:
		return badf(0, "spec %q of type %d is not read", path, typ)
	}
	return nil
}

func (tb *treeBuilder) layer() (*layer, error) {
	ly := &layer{meta: tb.meta}
	var link func(path string, p *prim, depth int) error
	link = func(path string, p *prim, depth int) error {
		if depth > maxDepth {
			return badf(0, "prims nested deeper than %d", maxDepth)
		}
		for _, k := range tb.kids[path] {
			c := tb.prims[path+"/"+k]
			if c == nil {
				return badf(0, "prim %s/%s is listed but has no spec", path, k)
			}
			p.children = append(p.children, c)
			if err := link(path+"/"+k, c, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, k := range tb.roots {
		p := tb.prims["/"+k]
		if p == nil {
			return nil, badf(0, "root prim %s is listed but has no spec", k)
		}
		ly.prims = append(ly.prims, p)
		if err := link("/"+k, p, 1); err != nil {
			return nil, err
		}
	}
	return ly, nil
}
