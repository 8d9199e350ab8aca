/** The body of an action that takes no parameters: none; any field is 400 parameter_unknown. */
export class EmptyBodyDto {}
