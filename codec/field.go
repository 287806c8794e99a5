package codec

// Field names a field of the wire as an *Error reports it: the name WIRE.md
// gives the field (section 9). It is a string type, so it prints as the
// wire name, and a program tells rules apart by comparing it with the
// constants below (errors.As, then ce.Field == codec.FieldSession), never
// by parsing an error's text. Together with Err, the class sentinel, it
// says which rule broke: ErrField with FieldClient is a client id of 0,
// with FieldSession a session rule, with FieldSize a denial carrying a
// body.
type Field string

// The fields an *Error can name.
const (
	// Frames and headers.
	FieldHeader           Field = "header" // a header shorter than 256 bytes
	FieldBody             Field = "body"   // a frame's body as a whole
	FieldSize             Field = "size"
	FieldCommand          Field = "command"
	FieldReservedFrame    Field = "reserved_frame"
	FieldClient           Field = "client"
	FieldRequest          Field = "request"
	FieldOperation        Field = "operation"
	FieldOperationPadding Field = "operation_padding"
	FieldSession          Field = "session"
	FieldCode             Field = "code"
	FieldReserved         Field = "reserved"
	FieldReason           Field = "reason"
	FieldWindow           Field = "window"
	// A result section (WIRE.md section 4).
	FieldResultCount   Field = "result_count"
	FieldResultEntries Field = "result_entries"
	// Versions, as text or packed.
	FieldVersion         Field = "version"
	FieldProtocolVersion Field = "protocol_version"
	// ClientVersionInfo and the login bodies.
	FieldSDKNameLen    Field = "sdk_name_len"
	FieldSDKName       Field = "sdk_name"
	FieldSDKVersionLen Field = "sdk_version_len"
	FieldSDKVersion    Field = "sdk_version"
	FieldUsernameLen   Field = "username_len"
	FieldUsername      Field = "username"
	FieldPasswordLen   Field = "password_len"
	FieldPassword      Field = "password"
	FieldTokenLen      Field = "token_len"
	FieldToken         Field = "token"
	FieldContextLen    Field = "context_len"
	FieldContext       Field = "context"
	// The login reply.
	FieldUserID                Field = "user_id"
	FieldServerProtocolVersion Field = "server_protocol_version"
	FieldServerVersionLen      Field = "server_version_len"
	FieldServerVersion         Field = "server_version"
)
