package ledeng

import "github.com/meshrig/meshrig/method/skinning"

// problem is the state of one run: the shared skinning model, with the
// steps of Le & Deng 2014 as methods.
type problem struct {
	*skinning.Model
}
