package collada

import (
	"encoding/xml"
	"fmt"
	"io"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/rig"
)

func init() {
	format.Register(format.Format{Name: "collada", Exts: []string{".dae"}, Scene: ReadScene, Write: Write})
}

// timestamp is the asset's created and modified date: a fixed value, so
// the same rig always gives the same bytes.
const timestamp = "2026-01-01T00:00:00Z"

// Write writes r as a COLLADA document. opt.Version "" and "1.4.1" give
// COLLADA 1.4.1; "1.5" and "1.5.0" give COLLADA 1.5 with a kinematics
// model (Write15); any other version is an error wrapping
// format.ErrUnsupported. An invalid rig (see rig.Rig.Validate, and
// non-finite or out-of-range mesh data) is refused before anything is
// written.
func Write(w io.Writer, r *rig.Rig, opt format.WriteOptions) error {
	switch opt.Version {
	case "", "1.4.1":
		if err := check(r); err != nil {
			return err
		}
		return encode(w, document141(r))
	case "1.5", "1.5.0":
		return Write15(w, r, nil)
	}
	return fmt.Errorf("COLLADA %q: %w (meshrig writes 1.4.1 and 1.5)", opt.Version, format.ErrUnsupported)
}

// encode writes the XML declaration and the indented document.
func encode(w io.Writer, doc any) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", " ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func check(r *rig.Rig) error {
	if err := r.Validate(); err != nil {
		return fmt.Errorf("COLLADA: %w", err)
	}
	if err := r.Mesh.Validate(); err != nil {
		return fmt.Errorf("COLLADA: mesh: %w", err)
	}
	return nil
}
