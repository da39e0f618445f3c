package answer_test

import "reflect"

// deref is the value p points to.
func deref(p any) any { return reflect.ValueOf(p).Elem().Interface() }
