//! Resources served beside the tools (`resources/list`, `resources/templates/list`,
//! `resources/read`): a `#[resource]` fn is a tool definition at a URI. A fixed URI is a
//! resource; a URI template's variables are the fn's parameters, typed and validated as a
//! tool's arguments are (decoded leniently: a variable is text, `"123"` reaches a `u32`).

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::ErrorData;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents, ResourceTemplate};
use serde_json::{Map, Value};

use crate::content::{self, Content};
use crate::context::ToolContext;
use crate::dispatch::{Arguments, DecodeOptions};
use crate::error::RegistryError;
use crate::mcp::catalog::completion::{Completer, Completers};
use crate::mcp::catalog::dynamic::DynamicResource;
use crate::mcp::catalog::prompts::failed;
use crate::mcp::catalog::uri_template::UriTemplate;
use crate::output::ToolOutput;
use crate::registry::RunPlace;
use crate::registry::layer::ToolLayer;
use crate::registry::{Entry, Registry};
use crate::tool::set::{IntoToolSet, ToolSet as _};
use crate::tool::{Receiver, ToolDef};

/// A resource's definition: implemented by the type `#[resource]` writes beside a fn
/// (`graph` → `GraphResource`); add it to [`Resources`].
pub trait ResourceFn {
    /// The definition: name, description, the variables' schema and the shim that calls
    /// the fn.
    fn def(&self) -> &'static ToolDef;
    /// The URI, or the URI template (`file:///{+path}`).
    fn uri(&self) -> &'static str;
    /// The MIME type of its text (`text/plain` when not given).
    fn mime_type(&self) -> Option<&'static str>;
}

/// The resources and resource templates a server offers, in the order they were added.
///
/// ```
/// # #[cfg(feature = "macros")] {
/// use tool_core::mcp::{Resources, resource};
///
/// /// The whole knowledge graph, as JSON
/// #[resource(uri = "memory://graph", mime_type = "application/json")]
/// fn graph() -> String {
///     r#"{"entities": [], "relations": []}"#.to_owned()
/// }
///
/// /// One entity of the graph
/// #[resource(uri = "memory://entities/{name}")]
/// fn entity(name: String) -> String {
///     format!("entity {name}")
/// }
///
/// let mut resources = Resources::new();
/// resources.add(GraphResource).unwrap().add(EntityResource).unwrap();
/// # }
/// ```
#[derive(Clone)]
pub struct Resources {
    // Shared: a call holds it to its end, as the tool path does (`Registry::start_call`).
    registry: Arc<Registry>,
    listed: Vec<Listed>,
    completers: Completers,
}

/// One resource or template: its URI and what its listing says beside the entry's own.
#[derive(Clone)]
struct Listed {
    uri: UriTemplate,
    /// Its entry's key in the registry: a `#[resource]`'s name, a dynamic resource's URI.
    entry: String,
    /// The name listed, when it is not the entry's (a dynamic resource's).
    name: Option<String>,
    mime_type: Option<Cow<'static, str>>,
}

impl Default for Resources {
    fn default() -> Self {
        Resources::new()
    }
}

impl core::fmt::Debug for Resources {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.listed.iter().map(|listed| listed.uri.as_str())).finish()
    }
}

impl Resources {
    /// No resources.
    #[must_use]
    pub fn new() -> Self {
        // A template's variables are text: `"123"` must reach a `u32` as 123.
        let registry = Arc::new(Registry::new().with_options(DecodeOptions::default().lenient(true)));
        Resources { registry, listed: Vec::new(), completers: Completers::default() }
    }

    /// Adds a resource, or a resource template when its URI has variables.
    ///
    /// # Errors
    /// [`RegistryError::DuplicateName`] for a second resource of one name;
    /// [`RegistryError::InvalidSchema`] for a URI served already, a template this crate
    /// cannot match, or variables that are not the fn's parameters.
    pub fn add(&mut self, resource: impl ResourceFn) -> Result<&mut Self, RegistryError> {
        let def = resource.def();
        let mime_type = resource.mime_type().map(Cow::Borrowed);
        self.insert(def.name(), None, def.parameters_json(), resource.uri(), mime_type, |registry| {
            registry.add(def).map(|_| ())
        })?;
        Ok(self)
    }

    /// Adds a resource made at run time (a file found at start-up, a result kept for the
    /// session), listed under its own name; names may repeat, URIs may not.
    ///
    /// # Errors
    /// [`RegistryError::InvalidSchema`] for a URI served already, or one with variables
    /// (a template's variables are a `#[resource]` fn's parameters).
    pub fn add_dynamic(&mut self, resource: DynamicResource) -> Result<&mut Self, RegistryError> {
        let template = UriTemplate::parse(&resource.uri)
            .map_err(|reason| RegistryError::InvalidSchema { name: resource.name.clone(), reason })?;
        if template.is_template() {
            let reason = format!("{} has variables: a dynamic resource's URI is fixed", resource.uri);
            return Err(RegistryError::InvalidSchema { name: resource.name.clone(), reason });
        }
        let entry = resource.entry();
        let parameters = entry.parameters_json.clone();
        let mime_type = resource.mime_type.clone().map(Cow::Owned);
        let name = Some(resource.name.clone());
        self.insert(&resource.uri, name, &parameters, &resource.uri, mime_type, |registry| {
            registry.add_dynamic(entry).map(|_| ())
        })?;
        Ok(self)
    }

    /// Removes the resource or template at `uri` (as listed); whether it was there.
    pub fn remove(&mut self, uri: &str) -> bool {
        let Some(position) = self.listed.iter().position(|listed| listed.uri.as_str() == uri) else {
            return false;
        };
        let listed = self.listed.remove(position);
        Arc::make_mut(&mut self.registry).remove(&listed.entry);
        true
    }

    /// Adds every `#[resource]` method of a `#[tools]` block, each called on `resources`
    /// (shared, so an `Arc<S>` the caller keeps, and also gives `Registry::add_all`, is
    /// accepted).
    ///
    /// # Errors
    /// As [`Resources::add`]; the resources before the one refused stay added.
    pub fn add_all<S: IntoToolSet>(&mut self, resources: S) -> Result<&mut Self, RegistryError> {
        let receiver: Arc<Receiver> = resources.into_shared();
        for method in S::Set::__resource_defs() {
            let add = |registry: &mut Registry| registry.add_method(method.def, Arc::clone(&receiver));
            let mime_type = method.mime_type.map(Cow::Borrowed);
            self.insert(method.def.name(), None, method.def.parameters_json(), method.uri, mime_type, add)?;
        }
        Ok(self)
    }

    /// Adds the resource whose registry entry is `entry` (taking `parameters`) at `uri`, the
    /// entry added to the registry by `add`.
    fn insert(
        &mut self,
        entry: &str,
        name: Option<String>,
        parameters: &str,
        uri: &str,
        mime_type: Option<Cow<'static, str>>,
        add: impl FnOnce(&mut Registry) -> Result<(), RegistryError>,
    ) -> Result<(), RegistryError> {
        let invalid = |reason: String| RegistryError::InvalidSchema {
            name: name.clone().unwrap_or_else(|| entry.to_owned()),
            reason,
        };
        let uri = UriTemplate::parse(uri).map_err(invalid)?;
        if self.listed.iter().any(|listed| listed.uri.as_str() == uri.as_str()) {
            return Err(invalid(format!("{} is served already", uri.as_str())));
        }
        check_variables(&uri, parameters).map_err(invalid)?;
        add(Arc::make_mut(&mut self.registry))?;
        self.listed.push(Listed { uri, entry: entry.to_owned(), name, mime_type });
        Ok(())
    }

    /// Wraps every resource's call in a tower `layer`, as [`Registry::layer`] wraps tools' (a
    /// timeout, a concurrency limit): its rejection is the resource request's error (-32603).
    pub fn layer<L>(&mut self, layer: L) -> &mut Self
    where
        L: ToolLayer,
    {
        Arc::make_mut(&mut self.registry).layer(layer);
        self
    }

    /// Completes `variable` of the template `template` (its URI template, as listed) with
    /// what `complete` offers for the text typed so far and the variables already given.
    /// A variable whose type is an enum is completed from its values without this.
    pub fn complete(
        &mut self,
        template: &str,
        variable: &str,
        complete: impl Fn(&str, &Map<String, Value>) -> Vec<String> + Send + Sync + 'static,
    ) -> &mut Self {
        self.completers.insert(template, variable, Arc::new(complete));
        self
    }

    /// How many resources and templates there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.listed.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty()
    }

    /// Every resource and template.
    #[cfg(feature = "oauth")]
    pub(in crate::mcp) fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.registry.iter()
    }

    /// The fixed resources `visible` keeps, as listed.
    pub(in crate::mcp) fn list(&self, visible: impl Fn(&Entry) -> bool) -> Vec<Resource> {
        self.shown(false, visible)
            .map(|(listed, entry)| {
                let mut resource = Resource::new(listed.uri.as_str(), listed.name.as_deref().unwrap_or(entry.name()));
                resource.title = entry.title().map(ToOwned::to_owned);
                resource.description = Some(entry.description().to_owned()).filter(|text| !text.is_empty());
                resource.mime_type = Some(mime_type(listed).to_owned());
                resource
            })
            .collect()
    }

    /// The templates `visible` keeps, as listed.
    pub(in crate::mcp) fn templates(&self, visible: impl Fn(&Entry) -> bool) -> Vec<ResourceTemplate> {
        self.shown(true, visible)
            .map(|(listed, entry)| {
                let mut template =
                    ResourceTemplate::new(listed.uri.as_str(), listed.name.as_deref().unwrap_or(entry.name()));
                template.title = entry.title().map(ToOwned::to_owned);
                template.description = Some(entry.description().to_owned()).filter(|text| !text.is_empty());
                template.mime_type = Some(mime_type(listed).to_owned());
                template
            })
            .collect()
    }

    fn shown(&self, templates: bool, visible: impl Fn(&Entry) -> bool) -> impl Iterator<Item = (&Listed, &Entry)> {
        self.listed.iter().filter(move |listed| listed.uri.is_template() == templates).filter_map(move |listed| {
            let entry = self.registry.get(&listed.entry)?;
            visible(entry).then_some((listed, entry))
        })
    }

    /// The resource `uri` names: its entry and the arguments to call it with (a fixed URI
    /// first, then the templates in the order they were added).
    pub(in crate::mcp) fn find(&self, uri: &str) -> Option<(&Entry, Map<String, Value>)> {
        let fixed = self.listed.iter().find(|listed| !listed.uri.is_template() && listed.uri.as_str() == uri);
        let (listed, values) = match fixed {
            Some(listed) => (listed, Vec::new()),
            None => self.listed.iter().find_map(|listed| Some((listed, listed.uri.matches(uri)?)))?,
        };
        let arguments = values.into_iter().map(|(name, value)| (name, Value::String(value))).collect();
        Some((self.registry.get(&listed.entry)?, arguments))
    }

    /// The template `template` (its entry), the completer of its `variable`, and its
    /// parameters.
    pub(in crate::mcp) fn completion(
        &self,
        template: &str,
        variable: &str,
    ) -> Option<(&Entry, Option<&Completer>, &str)> {
        let listed = self.listed.iter().find(|listed| listed.uri.as_str() == template)?;
        let entry = self.registry.get(&listed.entry)?;
        Some((entry, self.completers.get(template, variable), entry.parameters_json()))
    }

    /// Reads `uri` from resource `entry` with `arguments` in `context`.
    pub(in crate::mcp) async fn read(
        &self,
        uri: &str,
        entry: &Entry,
        arguments: Map<String, Value>,
        context: &ToolContext,
    ) -> Result<ReadResourceResult, ErrorData> {
        let output = self
            .registry
            .start_call(entry, context.clone(), Arguments::Value(Value::Object(arguments)), RunPlace::Alone)
            .await
            .map_err(|error| failed("resource", &error))?;
        let listed = self.listed.iter().find(|listed| listed.entry == entry.name());
        let mime = listed.map_or("text/plain", mime_type);
        Ok(ReadResourceResult::new(contents(uri, mime, &output)))
    }
}

fn mime_type(listed: &Listed) -> &str {
    listed.mime_type.as_deref().unwrap_or("text/plain")
}

/// A template's variables must be its fn's parameters: each variable one the fn takes, each
/// parameter it requires a variable (what else would fill it?).
fn check_variables(uri: &UriTemplate, parameters: &str) -> Result<(), String> {
    let schema: Value = serde_json::from_str(parameters).map_err(|error| error.to_string())?;
    let properties = schema["properties"].as_object().cloned().unwrap_or_default();
    if let Some(variable) = uri.variables().find(|variable| !properties.contains_key(*variable)) {
        return Err(format!("{{{variable}}} in {} is none of the fn's parameters", uri.as_str()));
    }
    let required = schema["required"].as_array().cloned().unwrap_or_default();
    if let Some(missing) = required.iter().filter_map(Value::as_str).find(|name| !uri.variables().any(|v| v == *name)) {
        return Err(format!("the parameter `{missing}` is no variable of {}: write {{{missing}}} in it", uri.as_str()));
    }
    Ok(())
}

/// A read's contents: each block of the fn's result at the URI read (an embedded resource
/// at its own), text with the resource's MIME type, media as base64 blobs with theirs.
fn contents(uri: &str, mime: &str, output: &ToolOutput) -> Vec<ResourceContents> {
    output
        .content()
        .iter()
        .map(|block| match block.plain() {
            Content::Text(text) => ResourceContents::text(text.as_str(), uri).with_mime_type(mime),
            Content::Image(media) | Content::Audio(media) => {
                ResourceContents::blob(media.data.as_str(), uri).with_mime_type(media.mime_type.as_str())
            }
            Content::Resource(resource) => {
                let contents = match &resource.contents {
                    content::ResourceContents::Text(text) => {
                        ResourceContents::text(text.as_str(), resource.uri.as_str())
                    }
                    content::ResourceContents::Blob(blob) => {
                        ResourceContents::blob(blob.as_str(), resource.uri.as_str())
                    }
                };
                match &resource.mime_type {
                    Some(mime) => contents.with_mime_type(mime.as_str()),
                    None => contents,
                }
            }
            // A link (or a block a later version adds) is kept as the text that describes it.
            other => ResourceContents::text(other.describe(), uri).with_mime_type("text/plain"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_block_becomes_contents_at_its_uri() {
        let output = ToolOutput::new([
            Content::text("hello"),
            Content::image(&[1, 2, 3], "image/png"),
            Content::resource_text("other://x", "text/markdown", "# x"),
        ]);
        let value = serde_json::to_value(contents("a://b", "text/csv", &output)).unwrap();
        assert_eq!(
            value,
            json!([
                {"uri": "a://b", "mimeType": "text/csv", "text": "hello"},
                {"uri": "a://b", "mimeType": "image/png", "blob": "AQID"},
                {"uri": "other://x", "mimeType": "text/markdown", "text": "# x"},
            ])
        );
    }
}
