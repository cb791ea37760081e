// What every part of the shell does to the page: find an element by its id,
// and build a picture from [tag, attributes, children] nodes (the cards'
// drawings, the guide's diagrams), element by element, never from markup.

export const $ = (id) => document.getElementById(id);

/** A picture's node, [tag, attributes, children], as an element of the
 * picture's namespace (SVG's). */
export function svgElement([tag, attributes, children], namespace) {
  const element = document.createElementNS(namespace, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children.map((child) => svgElement(child, namespace)));
  return element;
}
