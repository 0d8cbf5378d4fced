import Foundation

/// The inline script that switches the container to the collapsed view and wires the toggles.
extension HTMLRenderer {
  /// Wires the toggles: switches to the collapsed view, flips `data-state` and `aria-expanded`, moves focus to the
  /// toggle that is shown (a range has one in each view), animates the height unless the reader asks for reduced
  /// motion.
  static let script = """
    (function(r){var d=+r.dataset.duration||0,e=r.dataset.easing||'ease';r.classList.add('unfold-on');\
    r.querySelectorAll('.unfold-toggle').forEach(function(b){b.addEventListener('click',function(){\
    var x=r.dataset.state==='collapsed',h=r.offsetHeight;r.dataset.state=x?'expanded':'collapsed';\
    r.querySelectorAll('.unfold-toggle').forEach(function(t){t.setAttribute('aria-expanded',String(x))});\
    ([].filter.call(r.querySelectorAll(x?'.unfold-less':'.unfold-more'),function(t){return t.getClientRects().length})[0]\
    ||r.querySelector('.unfold-full')).focus();\
    var m=window.matchMedia&&matchMedia('(prefers-reduced-motion: reduce)').matches;\
    if(d&&!m&&r.animate){r.animate([{height:h+'px',overflow:'hidden'},{height:r.offsetHeight+'px',\
    overflow:'hidden'}],{duration:d,easing:e})}})})})(document.currentScript.parentElement)
    """
}
