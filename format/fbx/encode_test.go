package fbx

// Builders for hand-made documents.

func nd(name string, props []Property, children ...*Node) *Node {
	return &Node{Name: name, Props: props, Children: children}
}

func ps(vals ...any) []Property {
	var out []Property
	for _, v := range vals {
		switch x := v.(type) {
		case string:
			out = append(out, Property{Type: 'S', Bytes: []byte(x)})
		case int64:
			out = append(out, Property{Type: 'L', Int: x})
		case int:
			out = append(out, Property{Type: 'I', Int: int64(x)})
		case float64:
			out = append(out, Property{Type: 'D', Float: x})
		case []float64:
			out = append(out, Property{Type: 'd', F64: x})
		case []float32:
			out = append(out, Property{Type: 'f', F32: x})
		case []int32:
			out = append(out, Property{Type: 'i', I32: x})
		case []int64:
			out = append(out, Property{Type: 'l', I64: x})
		case Property:
			out = append(out, x)
		default:
			panic("ps: unsupported value")
		}
	}
	return out
}

// p70 builds a Properties70 P record: name, type, label, flags, values.
func p70(name, typ string, vals ...any) *Node {
	return nd("P", ps(append([]any{name, typ, "", "A"}, vals...)...))
}
