//! The attributes our macros read, as darling receivers: `#[tool(..)]` ([`ToolAttr`]),
//! `#[tool_args(..)]` on the container ([`ArgsInput`]), a variant ([`VariantInput`]) and
//! `#[param(..)]` on fields ([`ParamField`]). A field's keywords are read into [`Keywords`]
//! by `param_keywords.rs`, through the table in `keyword.rs`; the literal values keys take
//! are in `literal.rs`.
//!
//! Every unknown key (with "did you mean"), duplicate key and malformed value is reported at
//! once, in darling's words; the meaning-level rules live in `rules.rs`.

use darling::util::SpannedValue;
use darling::{FromDeriveInput, FromField, FromMeta, FromVariant};
use proc_macro2::Span;
use syn::{Attribute, Expr, Generics, Ident, Lit, Type};

use crate::keyword::Key;
use crate::literal::{Count, Num};
use crate::param_keywords::{KeyValue, Keywords};

/// `#[tool(name = "..", description = "..", crate = ::path)]`.
#[derive(Debug, Default, FromMeta)]
pub struct ToolAttr {
    /// The tool's name; defaults to the fn ident.
    #[darling(default, with = string_key)]
    pub name: Option<SpannedValue<String>>,
    /// Whether the name is free text (a prompt's or a resource's: MCP restricts only tool
    /// names); never a key of the attribute.
    #[darling(skip)]
    pub free_name: bool,
    /// The tool's description; defaults to the fn's doc comment.
    #[darling(default, with = string_key)]
    pub description: Option<SpannedValue<String>>,
    /// Where `tool_core` is, when it is re-exported under another path.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
    /// `strict` or `strict = false`: whether providers' strict modes are used for this tool,
    /// over the registry's default.
    pub strict: Option<SpannedValue<bool>>,
    /// A human-readable name (MCP `title`).
    #[darling(default, with = string_key)]
    pub title: Option<SpannedValue<String>>,
    /// MCP `readOnlyHint`.
    pub read_only: Option<bool>,
    /// MCP `destructiveHint`.
    pub destructive: Option<bool>,
    /// MCP `idempotentHint`.
    pub idempotent: Option<bool>,
    /// MCP `openWorldHint`.
    pub open_world: Option<bool>,
    /// `sequential`: a batch of calls holding this tool runs one call at a time (an agent
    /// loop runs the calls of one turn concurrently otherwise).
    pub sequential: darling::util::Flag,
    /// `early`: an agent loop may start a call before the model's turn has ended well, as it
    /// does a `read_only` or `idempotent` tool's.
    pub early: darling::util::Flag,
    /// `inline`: a plain fn that never blocks, called on the caller's task rather than
    /// handed to tokio's blocking pool.
    pub inline: darling::util::Flag,
    /// `requires_approval`: an agent loop asks its approver before every call.
    pub requires_approval: darling::util::Flag,
    /// `group = ".."`: the group `Registry::collect_group` selects the tool by.
    #[darling(default, with = string_key)]
    pub group: Option<SpannedValue<String>>,
    /// `open`, for plain parameters or none: keys the tool does not name are ignored.
    pub open: darling::util::Flag,
    /// `scopes = ["trips:write"]`: the OAuth scopes a caller's token must hold.
    #[darling(default, with = scope_list)]
    pub scopes: Vec<syn::LitStr>,
    /// `task = "optional"` or `task = "required"`: an MCP client may (or must) follow a call
    /// as a task.
    #[darling(default, with = task_key)]
    pub task: Option<TaskSupport>,
}

/// The values of `task = ".."`, in the MCP tasks extension's words.
#[derive(Debug, Clone, Copy)]
pub enum TaskSupport {
    Optional,
    Required,
}

/// `task = "optional" | "required"`.
fn task_key(meta: &syn::Meta) -> darling::Result<Option<TaskSupport>> {
    const FORM: &str =
        "`task` takes `\"optional\"` (a task when the client asks for one) or `\"required\"` (only as a task)";
    if let syn::Meta::Path(_) = meta {
        return Err(darling::Error::custom(FORM).with_span(meta));
    }
    let Some(value) = string_key(meta)? else { return Ok(None) };
    match value.as_str() {
        "optional" => Ok(Some(TaskSupport::Optional)),
        "required" => Ok(Some(TaskSupport::Required)),
        _ => Err(darling::Error::custom(FORM).with_span(&value.span())),
    }
}

/// `scopes = ["a", "b"]`: string literals, each an RFC 6749 scope token (printable ASCII
/// without spaces, `"` or `\\`), since a token's `scope` claim separates them by spaces.
pub fn scope_list(meta: &syn::Meta) -> darling::Result<Vec<syn::LitStr>> {
    const FORM: &str = "`scopes` takes a list of strings: `scopes = [\"trips:write\"]`";
    let syn::Meta::NameValue(pair) = meta else {
        return Err(darling::Error::custom(FORM).with_span(meta));
    };
    let Expr::Array(array) = &pair.value else {
        return Err(darling::Error::custom(FORM).with_span(&pair.value));
    };
    if array.elems.is_empty() {
        return Err(darling::Error::custom("`scopes` names no scope: leave the key out, or name one").with_span(array));
    }
    let mut errors = darling::Error::accumulator();
    let mut scopes = Vec::new();
    for element in &array.elems {
        match element {
            Expr::Lit(syn::ExprLit { lit: Lit::Str(text), .. }) => {
                let value = text.value();
                if value.is_empty()
                    || !value.bytes().all(|byte| byte.is_ascii_graphic() && byte != b'"' && byte != b'\\')
                {
                    errors.push(
                        darling::Error::custom(format!(
                            "`{}` is not an OAuth scope: a scope is printable ASCII without spaces, `\"` or `\\`",
                            value.escape_default()
                        ))
                        .with_span(text),
                    );
                } else {
                    scopes.push(text.clone());
                }
            }
            other => errors.push(darling::Error::custom(FORM).with_span(other)),
        }
    }
    errors.finish_with(scopes)
}

/// A key whose value is a string (`group = "admin"`). darling's own message for anything
/// else, "Unexpected type `path`", names neither the key nor the fix; this one does both.
pub fn string_key(meta: &syn::Meta) -> darling::Result<Option<SpannedValue<String>>> {
    let key = meta.path().get_ident().map(ToString::to_string).unwrap_or_default();
    let value = match meta {
        syn::Meta::NameValue(pair) => &pair.value,
        _ => return Err(darling::Error::custom(format!("`{key}` takes a string: `{key} = \"..\"`")).with_span(meta)),
    };
    match value {
        Expr::Lit(syn::ExprLit { lit: Lit::Str(text), .. }) => Ok(Some(SpannedValue::new(text.value(), text.span()))),
        Expr::Path(path) if path.path.get_ident().is_some() => {
            let word = path.path.get_ident().map(ToString::to_string).unwrap_or_default();
            Err(darling::Error::custom(format!("`{key}` takes a string: write `{key} = \"{word}\"`")).with_span(value))
        }
        _ => Err(darling::Error::custom(format!("`{key}` takes a string: `{key} = \"..\"`")).with_span(value)),
    }
}

/// The item `#[derive(ToolArgs)]` is on.
#[derive(Debug, FromDeriveInput)]
#[darling(attributes(tool_args), forward_attrs(doc, serde))]
pub struct ArgsInput {
    /// The type's name.
    pub ident: Ident,
    /// The type's generics.
    pub generics: Generics,
    /// The fields of a struct, or the variants of an enum; each is read on its own, so a
    /// mistake in one does not hide the mistakes in the others.
    pub data: darling::ast::Data<syn::Variant, syn::Field>,
    /// `///` and `#[serde]` attributes.
    pub attrs: Vec<Attribute>,
    /// `#[tool_args(crate = ::path)]`: where `tool_core` is.
    #[darling(rename = "crate")]
    pub krate: Option<syn::Path>,
    /// `#[tool_args(enum_names)]` on a unit-only enum: its variant titles go into MCP
    /// elicitation forms as the deprecated `enumNames`, for clients before SEP-1330.
    pub enum_names: darling::util::Flag,
    /// `#[tool_args(open)]` on a struct: keys it does not name are ignored, not refused.
    pub open: darling::util::Flag,
    /// `#[tool_args(serde)]` on a struct: serde's derive gives its `Deserialize`, for a serde
    /// key the derive does not follow.
    pub serde: darling::util::Flag,
}

/// One variant of an enum deriving `ToolArgs`.
#[derive(Debug, FromVariant)]
#[darling(attributes(param), forward_attrs(doc, serde))]
pub struct VariantInput {
    /// The variant's name.
    pub ident: Ident,
    /// Its fields: none (unit), one unnamed (newtype) or named (struct variant).
    pub fields: darling::ast::Fields<syn::Field>,
    /// `///` and `#[serde]` attributes.
    pub attrs: Vec<Attribute>,
    /// `#[param(description = "..")]`: overrides the doc comment.
    pub description: Option<SpannedValue<String>>,
}

/// One field and its `#[param(..)]` keywords.
#[derive(Debug, FromField)]
#[darling(attributes(param), forward_attrs(doc, serde))]
pub struct ParamField {
    /// The field's name (`None` in a newtype variant).
    pub ident: Option<Ident>,
    /// The field's type.
    pub ty: Type,
    /// `///` and `#[serde]` attributes.
    pub attrs: Vec<Attribute>,
    // #[param(as = String)]
    /// `as = Type`: the schema and validation of `Type` stand for the field's own type, whose
    /// serde form they describe (a foreign type, or one read `#[serde(with = ..)]`).
    #[darling(rename = "as")]
    pub as_type: Option<SpannedValue<Type>>,
    /// Every other key: the keywords, read by the table in `keyword.rs`.
    #[darling(flatten)]
    pub keywords: Keywords,
}

/// Which elements `items(..)` or `values(..)` constrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    /// A sequence's elements.
    Items,
    /// A map's values.
    Values,
}

impl Element {
    /// The key that holds these elements' keywords.
    pub const fn key(self) -> Key {
        match self {
            Element::Items => Key::Items,
            Element::Values => Key::Values,
        }
    }
}

impl ParamField {
    /// Reads a field's `#[param(..)]`, taking `as = Type<..>` without quotes: syn reads a
    /// key's value as an expression, where `Option<String>` is a chained comparison, so the
    /// type's tokens are handed to darling as a string first.
    pub fn read(field: &syn::Field) -> darling::Result<ParamField> {
        let mut field = field.clone();
        for attr in &mut field.attrs {
            if let syn::Meta::List(list) = &mut attr.meta
                && list.path.is_ident("param")
            {
                list.tokens = quote_stand_in(std::mem::take(&mut list.tokens));
            }
        }
        ParamField::from_field(&field)
    }

    /// The keywords on the elements (`items(..)`) or values (`values(..)`), as a field of
    /// the element type (`<Vec<String> as ArrayParam>::Item`), with the span of the key.
    pub fn element(&self, which: Element) -> Option<(Span, ParamField)> {
        let keywords = self.keywords.nested(which.key())?;
        let parent = self.as_type.as_deref().unwrap_or(&self.ty);
        let projection: Type = match which {
            Element::Items => syn::parse_quote!(<#parent as _tool_core::param::ArrayParam>::Item),
            Element::Values => syn::parse_quote!(<#parent as _tool_core::param::MapParam>::Value),
        };
        let field = ParamField {
            ident: None,
            ty: projection.clone(),
            attrs: Vec::new(),
            as_type: Some(SpannedValue::new(projection, keywords.span())),
            keywords: (**keywords).clone(),
        };
        Some((keywords.span(), field))
    }

    /// The numeric keywords that are set.
    pub fn bounds(&self) -> impl Iterator<Item = (Key, &Num)> {
        self.keywords.iter().filter_map(|(key, value)| match value {
            KeyValue::Number(num) => Some((key, num)),
            _ => None,
        })
    }

    /// The counting keywords among `keys` that are set.
    fn counts(&self, keys: [Key; 2]) -> impl Iterator<Item = (Key, Count)> {
        keys.into_iter().filter_map(|key| Some((key, self.keywords.count(key)?)))
    }

    /// The string length keywords that are set.
    pub fn lengths(&self) -> impl Iterator<Item = (Key, Count)> {
        self.counts([Key::MinLength, Key::MaxLength])
    }

    /// The array size keywords that are set.
    pub fn item_counts(&self) -> impl Iterator<Item = (Key, Count)> {
        self.counts([Key::MinItems, Key::MaxItems])
    }

    /// The map size keywords that are set.
    pub fn property_counts(&self) -> impl Iterator<Item = (Key, Count)> {
        self.counts([Key::MinProperties, Key::MaxProperties])
    }
}

/// `tokens` with the value of an `as = ..` key that holds `<` turned into a string literal.
fn quote_stand_in(tokens: proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    use proc_macro2::{Literal, TokenTree};
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while let Some(tree) = trees.get(i) {
        out.push(tree.clone());
        i += 1;
        let is_as = matches!(tree, TokenTree::Ident(ident) if ident == "as");
        let eq_next = matches!(trees.get(i), Some(TokenTree::Punct(p)) if p.as_char() == '=');
        if !(is_as && eq_next) {
            continue;
        }
        out.extend(trees.get(i).cloned());
        i += 1;
        let start = i;
        let mut depth = 0usize;
        while let Some(tree) = trees.get(i) {
            match tree {
                TokenTree::Punct(p) if p.as_char() == '<' => depth += 1,
                TokenTree::Punct(p) if p.as_char() == '>' => depth = depth.saturating_sub(1),
                TokenTree::Punct(p) if p.as_char() == ',' && depth == 0 => break,
                _ => {}
            }
            i += 1;
        }
        let value = trees.get(start..i).unwrap_or_default();
        let generic = value.iter().any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '<'));
        if generic && let Some(first) = value.first() {
            let text: proc_macro2::TokenStream = value.iter().cloned().collect();
            let mut literal = Literal::string(&text.to_string());
            literal.set_span(first.span());
            out.push(TokenTree::Literal(literal));
        } else {
            out.extend(value.iter().cloned());
        }
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::ParamField;
    use crate::keyword::Key;
    use crate::param_keywords::KeyValue;

    fn read(field: syn::Field) -> darling::Result<ParamField> {
        ParamField::read(&field)
    }

    #[test]
    fn keywords_are_read_by_the_table_in_key_order() {
        let field = read(syn::parse_quote!(
            #[param(unique_items, max_items = 3, items(max_length = 8, description = "a tag"), as = Vec<String>, description = "tags")]
            tags: Vec<String>
        ))
        .expect("valid keywords");
        let keys: Vec<Key> = field.keywords.iter().map(|(key, _)| key).collect();
        assert_eq!(keys, [Key::Description, Key::MaxItems, Key::UniqueItems, Key::Items]);
        assert!(matches!(field.keywords.get(Key::UniqueItems), Some(KeyValue::Flag(flag)) if **flag));
        assert_eq!(field.keywords.count(Key::MaxItems).map(|count| count.value), Some(3));
        let items = field.keywords.nested(Key::Items).expect("items(..)");
        assert_eq!(items.count(Key::MaxLength).map(|count| count.value), Some(8));
        assert!(field.as_type.is_some(), "`as` is the receiver's own key");
    }

    #[test]
    fn unknown_duplicate_and_malformed_keys_are_all_reported() {
        let error = read(syn::parse_quote!(
            #[param(maxlength = 3, minimum = 1, minimum = 2, min_length = -1, items(default = 1, min_properties = 1))]
            x: Vec<String>
        ))
        .expect_err("four mistakes");
        let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages.len(), 4, "{messages:?}");
        assert!(messages[0].contains("Unknown field: `maxlength`. Did you mean `max_length`?"), "{messages:?}");
        assert!(messages[1].contains("Duplicate field `minimum`"), "{messages:?}");
        assert!(messages[2].contains("expected a non-negative integer"), "{messages:?}");
        // `items(..)` knows only the keys that describe one value.
        assert!(messages[3].contains("Unknown field: `default`"), "{messages:?}");
        assert!(messages[3].contains("Unknown field: `min_properties`"), "{messages:?}");
    }
}
